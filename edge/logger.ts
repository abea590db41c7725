/** What the edge's app and routes log through: pino's two levels they use (edge/server.ts gives the real one). */
export interface EdgeLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}
