/** The live session a call names, or the call's SESSION_ENDED refusal. */
import type { CashierDeps } from "../ports/ports.ts";
import { openSession, type OpenSession } from "../app/cashier-session.ts";
import { toRpcError } from "../../rpc/errors.ts";

export async function cashierSession(deps: CashierDeps, sessionToken: string): Promise<OpenSession> {
  const opened = await openSession(deps, sessionToken);
  if (!opened.ok) throw toRpcError(opened.error);
  return opened.open;
}
