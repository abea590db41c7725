/**
 * Where an order's customer goes back to. For an order made in a hosted
 * Cashier session that is the session's own page, whose path carries the
 * session's bearer token: such a return URL is kept sealed (AES-256-GCM under
 * the master key, as a held card number is), so that a reader of the database
 * cannot step into a live session. Sessions themselves are kept only as
 * hashes (session-tokens.ts). Every other order's return URL is the
 * platform's own address, kept as given. Rows written before sealing are read
 * as they are: their sessions ended long since.
 */
import { open, seal } from "../../security/sealed-box.ts";
import type { Attempt } from "../../shared/transaction.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";

const SEALED = "sealed:";
const PURPOSE = "payment_order.return_url";

/** The order's return_url as it is written: sealed when the order was made in a session. */
export function storedReturnUrl(deps: Pick<ProcessDeps, "keys">, url: string, inSession: boolean): string {
  return inSession ? SEALED + seal(deps.keys.encryption, url, PURPOSE) : url;
}

/** The attempt with its order's return_url readable, for the one place that sends a customer there (the challenge page). */
export function withReturnUrl(deps: Pick<ProcessDeps, "keys">, a: Attempt): Attempt {
  if (!a.returnUrl.startsWith(SEALED)) return a;
  return { ...a, returnUrl: open(deps.keys.encryption, a.returnUrl.slice(SEALED.length), PURPOSE) };
}
