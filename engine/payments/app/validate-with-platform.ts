/**
 * Validation: before any processor is called, a sale or payout of a merchant
 * with a validation_url is put to the platform, with an auth_token issued for
 * this cashier session: the hosted Cashier session's own, or for a Process
 * order one made for it (kept only as a keyed hash). Status 0 confirms; any
 * other status rejects (declined, 9002, the platform's description); no
 * usable reply in time declines with 9003 and says why. The call and its
 * reply are kept with the transaction's callbacks.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { ERROR_CODES } from "../../shared/errors.ts";
import { failedState, step, type Decision } from "../domain/outcome.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { readValidationReply, validationRequestBody } from "../callbacks/validation-codec.ts";
import { callbackHeaders } from "../callbacks/signature-header.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { signableText } from "../../shared/canonical.ts";
import { fingerprint } from "../../shared/hmac.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { acceptedKeys } from "./authenticate.ts";
import { refusedWithoutWords } from "../domain/platform-refusal.ts";

export type ValidationResult = { confirmed: true } | { confirmed: false; decision: Decision };

export async function validateWithPlatform(deps: ProcessDeps, a: Attempt, merchant: Merchant, url: string, sessionToken?: string): Promise<ValidationResult> {
  const authToken = sessionToken ?? randomBytes(32).toString("base64url");
  // A hosted Cashier session's token is the session's (derived, never stored); a Process order's is its own.
  if (sessionToken === undefined) await deps.orders.saveSession(a.orderRef, fingerprint(deps.keys.tokenHash, authToken));
  const eventId = randomUUID();
  const body = validationRequestBody(a, authToken, Math.floor(deps.now().getTime() / 1000), merchant.signingKey);
  const result = await deps.send({
    url,
    body,
    headers: callbackHeaders(eventId, merchant.id),
    timeoutMs: deps.schedule.validation.timeoutMs,
  });
  const reply = readValidationReply(result, ...acceptedKeys(merchant, deps.now()));
  const failed = failedState(a.type);
  // What is kept is the call without the token: only its keyed hash is ever stored.
  const record = { merchantId: merchant.id, traceId: a.traceId, eventId, url, body: body.replace(authToken, "[auth_token]") };
  if (!reply.usable) {
    await deps.callbacks.recordValidation(
      { ...record, state: "failed", outcome: result.refusedAddress ? "refused-address" : "failed", error: reply.error },
      result,
    );
    return {
      confirmed: false,
      decision: step(failed, "validation:unavailable", {
        errorCode: ERROR_CODES.VALIDATION_UNAVAILABLE,
        errorDetails: signableText(`Validation unavailable: ${reply.error}`),
      }),
    };
  }
  if (reply.status !== 0) {
    await deps.callbacks.recordValidation({ ...record, state: "refused", outcome: "refused", error: `status ${reply.status}` }, result);
    return {
      confirmed: false,
      decision: step(failed, "validation:rejected", {
        errorCode: ERROR_CODES.VALIDATION_REJECTED,
        errorDetails: signableText(maskCardNumbers(reply.description || refusedWithoutWords(reply.status))),
      }),
    };
  }
  await deps.callbacks.recordValidation({ ...record, state: "delivered", outcome: "delivered", error: "" }, result);
  return { confirmed: true };
}
