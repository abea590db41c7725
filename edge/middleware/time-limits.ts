/**
 * How long a client may take to send its request, on the edge and the
 * Backoffice alike: a slow client holds a connection (and, for a body, a
 * handler) for as long as it is let, so a few of them could hold them all.
 * - the head: HEAD_TIMEOUT_MS from its first byte (node:http's headersTimeout);
 * - the body: BODY_TIMEOUT_MS from when a route starts reading it (body.ts),
 *   answered 408 in the route's own form (the wire's JSON, a page);
 * - the whole request: REQUEST_TIMEOUT_MS (node:http's requestTimeout), a
 *   backstop for a body no route reads, past the two above so that the
 *   readers answer first; node answers it with a bare 408.
 * Node looks for expired requests every CHECK_INTERVAL_MS (its default, 30 s,
 * would let a limit of 5 s run to 35). Time spent answering (the engine's
 * call) is not the client's and is not limited here. A connection idle
 * between requests is kept KEEP_ALIVE_MS (past the 60 s of common load
 * balancers, so that they close first and never reuse a connection we closed).
 */
import type { ServerOptions } from "node:http";

export const HEAD_TIMEOUT_MS = 5_000;
export const BODY_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 15_000;
export const CHECK_INTERVAL_MS = 1_000;
export const KEEP_ALIVE_MS = 65_000;

/** node:http (and node:https) server options with the limits above. */
export function timeLimitedServerOptions(): ServerOptions {
  return {
    headersTimeout: HEAD_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
    keepAliveTimeout: KEEP_ALIVE_MS,
  };
}
