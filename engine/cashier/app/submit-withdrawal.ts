/**
 * SubmitWithdrawal (the Cashier's withdrawal form): the session -> the amount
 * (within the balance and the frontend's limits) and the destination (a saved
 * card or one typed in; closed loop: only a card this customer made an
 * approved deposit from at this merchant, by its keyed fingerprint, unless the
 * frontend turns the rule off) -> the payout under the session's order_id
 * through the same use case as Process: `requested`, Validation, then auto or
 * manual approval. The session's order_id names its one payout: a repeat of
 * the form, the same or with other fields, answers that payout and processes
 * nothing again, also when the repeats arrive together.
 */
import { isIP } from "node:net";
import { domainError, type FieldViolation } from "../../shared/errors.ts";
import { cardNumberProblem } from "../../shared/card.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { open as openSealed } from "../../security/sealed-box.ts";
import { authToken } from "../../shared/session-tokens.ts";
import type { CashierDeps } from "../ports/ports.ts";
import {
  amountViolations,
  customerOrigin,
  formInput,
  inFormNames,
  invalid,
  sessionOrderAnswer,
  textViolations,
  type CardSource,
  type FormResult,
  offeredSavedCard,
} from "./cashier-forms.ts";
import { openSession } from "./cashier-session.ts";
import { processTransaction } from "../../payments/index.ts";
import { savedCardBinding } from "./submit-deposit.ts";

export interface WithdrawalForm {
  sessionToken: string;
  amountMinor: number;
  currency: string;
  /** Where the money goes; a new card's CVV is not asked for. */
  destination: CardSource | undefined;
  requesterIp: string;
}

const NOT_DEPOSITED = "must be a card you made an approved deposit from at this merchant";

export async function submitWithdrawal(deps: CashierDeps, form: WithdrawalForm): Promise<FormResult> {
  const opened = await openSession(deps, form.sessionToken);
  if (!opened.ok) return opened;
  const { session: s, frontend } = opened.open;
  if (s.intent !== "withdrawal" || !s.orderId) return { ok: false, error: domainError("INVALID_STATE", "this Cashier session is for a deposit") };
  const closedLoop = frontend.settings.closedLoopWithdrawals;

  const violations: FieldViolation[] = amountViolations("withdrawal", s, opened.open, form.amountMinor, form.currency);
  if (form.requesterIp !== "" && !isIP(form.requesterIp)) violations.push({ field: "requester_ip", description: "must be an IPv4 or IPv6 address" });
  const dest = form.destination;
  let card = { number: "", cvv: "", expiry: "" };
  if (!dest) violations.push({ field: "saved_card_id", description: "is required: a saved card or a new card" });
  else if (dest.kind === "saved") {
    const saved = await offeredSavedCard(deps, opened.open, dest.id);
    if (!saved) violations.push({ field: "saved_card_id", description: "names none of your saved cards" });
    else if (closedLoop && !saved.depositedFrom) violations.push({ field: "saved_card_id", description: NOT_DEPOSITED });
    else
      card = {
        number: openSealed(deps.keys.encryption, saved.cardSealed, savedCardBinding(s.merchantId, s.pin, saved.cardFingerprint)),
        cvv: "",
        expiry: saved.cardExpiry,
      };
  } else {
    violations.push(...textViolations([["new_card.holder", dest.holder, 50]]));
    card = { number: dest.number, cvv: "", expiry: dest.expiry };
    // Only a well-formed number is looked up; a malformed one is named by the Process rules below.
    const wellFormed = cardNumberProblem(dest.number) === undefined;
    if (closedLoop && wellFormed && !(await deps.sessions.depositedFrom(s.merchantId, s.pin, fingerprint(deps.keys.cardFingerprint, dest.number)))) {
      violations.push({ field: "new_card.card.number", description: NOT_DEPOSITED });
    }
  }
  if (violations.length > 0 || !dest) return { ok: false, error: invalid(violations) };

  const input = formInput(s, {
    type: "payout",
    orderId: s.orderId,
    amountMinor: form.amountMinor,
    card,
    requesterIp: form.requesterIp,
    returnUrl: s.returnUrl,
  });
  const result = await processTransaction(deps, input, undefined, customerOrigin(s, authToken(deps.keys.tokenHash, s.nonce)));
  if (!result.ok) return (await sessionOrderAnswer(deps, s, s.orderId, result.error)) ?? { ok: false, error: inFormNames(result.error, dest.kind) };
  return { ok: true, attempt: result.attempt, replayed: result.replayed };
}
