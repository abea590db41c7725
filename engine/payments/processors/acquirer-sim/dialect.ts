/**
 * One acquirer's API as the simulator speaks it, under a path prefix: sim-a
 * and sim-b's own (/v1), Checkout.com's (/checkout), Adyen's (/adyen). The
 * server routes each request to the dialect of its prefix and asks the
 * dialect for its own shape of the plumbing's refusals, so that a full disk
 * reads as each acquirer's "unavailable".
 */
import type { IncomingMessage } from "node:http";
import type { Answer } from "./http.ts";

export type Refusal = "unavailable" | "not_json" | "too_large" | "internal";

export interface Dialect {
  /** The path prefix it answers under ("/checkout/"); "" for the rest. */
  readonly prefix: string;
  /** The answer, or undefined when the connection was cut on purpose (a fault). */
  route(req: IncomingMessage, url: URL): Promise<Answer | undefined>;
  refusal(kind: Refusal): Answer;
}
