/**
 * A start that cannot go on says why and what to do, in one line a newcomer
 * can act on: `cashier failed to start: <cause>. Fix: <fix>`. StartError
 * carries both; explainStartError turns the usual system errors (a taken
 * port, a refused database, a directory that cannot be written) into the
 * same shape, so no fatal start error is ever printed without its cause.
 */
import { ConfigError } from "../config/config.ts";
import type { Logger } from "./log.ts";

/** A refusal to start that knows its remedy. */
export class StartError extends Error {
  readonly fix: string;
  constructor(message: string, fix: string) {
    super(message);
    this.name = "StartError";
    this.fix = fix;
  }
}

type Errno = NodeJS.ErrnoException & { address?: string; port?: number };

/** What the system's error codes mean at start, and what fixes them. */
const BY_CODE = new Map<string, (e: Errno) => { cause: string; fix: string }>([
  [
    "EADDRINUSE",
    (e) => ({
      cause: `port ${e.port ?? "?"} on ${e.address ?? "this machine"} is already in use`,
      fix: "stop what listens there, or choose other ports with EDGE_PORT, ENGINE_PORT, BACKOFFICE_PORT and METRICS_PORT (0 takes any free port)",
    }),
  ],
  [
    "EACCES",
    (e) => ({
      cause: `permission denied${e.path ? ` on ${e.path}` : e.port !== undefined ? ` to listen on port ${e.port}` : ""}`,
      fix: "run Cashier as a user who may write there (or listen there), or point CASHIER_DATA_DIR or the ports elsewhere",
    }),
  ],
  [
    "ECONNREFUSED",
    (e) => ({
      cause: `the database refused the connection${e.address ? ` at ${e.address}:${e.port ?? ""}` : ""}`,
      fix: "start that Postgres or correct DATABASE_URL; leave DATABASE_URL unset to use the embedded Postgres",
    }),
  ],
  [
    "ENOTFOUND",
    () => ({
      cause: "the database host in DATABASE_URL does not resolve",
      fix: "correct the host name in DATABASE_URL",
    }),
  ],
  [
    "ENOSPC",
    (e) => ({
      cause: `no space left on the device${e.path ? ` holding ${e.path}` : ""}`,
      fix: "free some space, or point CASHIER_DATA_DIR at a larger disk",
    }),
  ],
  [
    "28P01",
    () => ({
      cause: "the database refused the user name or password in DATABASE_URL",
      fix: "correct the credentials in DATABASE_URL",
    }),
  ],
  [
    "3D000",
    () => ({
      cause: "the database named in DATABASE_URL does not exist",
      fix: "create it (createdb) or correct the name in DATABASE_URL",
    }),
  ],
]);

/** The cause and the fix of any error that stopped a start. */
export function explainStartError(err: unknown): { cause: string; fix: string } {
  if (err instanceof StartError) return { cause: err.message, fix: err.fix };
  if (err instanceof ConfigError) return { cause: err.message, fix: "correct that setting (see docs/operations.md, Settings) and start again" };
  const e = err as Errno | undefined;
  const known = typeof e?.code === "string" ? BY_CODE.get(e.code) : undefined;
  if (known) return known(e!);
  const message = err instanceof Error ? err.message : String(err);
  return { cause: message || "an error without a message", fix: "see the error above; docs/operations.md (Troubleshooting start) lists the usual causes" };
}

/** The one fatal line: `cashier failed to start: <cause>. Fix: <fix>`. */
export function startFailureLine(what: string, err: unknown): string {
  const { cause, fix } = explainStartError(err);
  return `${what} failed to start: ${cause.replace(/\.$/, "")}. Fix: ${fix}`;
}

/**
 * Logs the fatal line (with the error itself, its stack included, only when
 * it is not one we explain: a fault of Cashier's own, for whoever must debug
 * it; a setting, a file or a port the operator can fix gets the line alone)
 * and writes it plainly to stderr too, where a person starting Cashier by
 * hand reads it.
 */
export function reportStartFailure(log: Logger, what: string, err: unknown): void {
  const line = startFailureLine(what, err);
  const code = (err as Errno | undefined)?.code;
  const known = typeof code === "string" && BY_CODE.has(code);
  const explained = err instanceof StartError || err instanceof ConfigError || known;
  // A system error we explain by its code keeps its stack at debug level: where it came from may still matter.
  if (known) log.debug({ err }, "the system error behind the start's failure");
  log.fatal(explained ? {} : { err }, line);
  process.stderr.write(`${line}\n`);
}
