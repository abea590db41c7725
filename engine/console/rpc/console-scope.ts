/**
 * The merchant scope as the console's calls apply it: a merchant outside the
 * operator's scope answers NOT_FOUND, as if it did not exist, so that a
 * scoped operator learns nothing of the merchants it may not see.
 */
import type { SignedIn } from "../app/console-session.ts";
import { inScope } from "../domain/operator-roles.ts";
import { domainError } from "../../shared/errors.ts";
import { checkText, toRpcError } from "../../rpc/errors.ts";

/** NOT_FOUND naming `what`: the answer for a thing that does not exist and for one out of scope alike. */
export const notFound = (what: string) => toRpcError(domainError("NOT_FOUND", what));

/** The merchants a call covers: the one asked for (in scope, or NOT_FOUND), else the scope (undefined: all). */
export function merchantsFor(who: SignedIn, merchantId: string): readonly string[] | undefined {
  checkText("merchant_id", merchantId);
  if (merchantId) {
    if (!inScope(who.scope, merchantId)) throw notFound(`no merchant ${merchantId}`);
    return [merchantId];
  }
  return who.scope.merchantIds.length > 0 ? who.scope.merchantIds : undefined;
}
