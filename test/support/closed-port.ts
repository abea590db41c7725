/**
 * A loopback port nothing listens on (bound, then closed): where a test needs
 * a connection refused, as to an engine, a simulator or an acquirer that is down.
 */
import { createServer } from "node:net";

export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
