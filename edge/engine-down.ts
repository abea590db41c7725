/**
 * What a failed engine call means for the edge, decided by the Connect code
 * and what the error carries, never by its words: every answer an engine
 * gives carries an ErrorDetail (its reason), so an error without one never
 * came from an engine; it is the transport's (no connection, reset, deadline).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../gen/cashier/engine/v1/errors_pb.js";

/** True when an engine answered the call (its refusal or its own trouble, such as a database down). */
export function engineAnswered(err: ConnectError): boolean {
  return err.findDetails(ErrorDetailSchema).length > 0;
}

/**
 * The engine could not be reached: UNAVAILABLE without an engine's answer
 * (refused or reset connection, a draining engine's GOAWAY). Another engine
 * may take the call; one that answered UNAVAILABLE (its database) is up.
 */
export function engineUnreachable(err: unknown): boolean {
  const e = ConnectError.from(err);
  return e.code === Code.Unavailable && !engineAnswered(e);
}

/**
 * Codes that tell a client to retry later (HTTP 503) when no engine reason says otherwise (an engine's own
 * RESOURCE_EXHAUSTED refusals, RATE_LIMITED and PAYLOAD_TOO_LARGE, carry their reason and keep its 429 and 413).
 * RESOURCE_EXHAUSTED without one is the service's own load, never the caller's request: an engine's HTTP/2 that
 * refuses streams (ENHANCE_YOUR_CALM), a throttle in front of it.
 */
const RETRY_LATER = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted, Code.ResourceExhausted]);

/** A failure the client should retry (503, status -2) rather than a fault of ours (500, status -1). */
export function retryLater(err: ConnectError): boolean {
  return RETRY_LATER.has(err.code);
}

/**
 * The seconds a 503 tells a client to wait (`Retry-After`): long enough for a
 * database failover or a freed disk to be noticed, short enough that a
 * customer's payment is not held up for long when the next try succeeds.
 */
export const RETRY_AFTER_SECONDS = 5;
