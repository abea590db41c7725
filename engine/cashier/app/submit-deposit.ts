/**
 * SubmitDeposit (the Cashier's deposit form): the session -> the form's own
 * rules (amount, card source, return address) -> a sale through the same use
 * case as Process (process-transaction.ts) under an order id the service
 * makes, with the session's auth_token, `customer` as its maker and the
 * session's SCOrderID/Udef1/Udef2 -> a new card kept when asked and allowed.
 * A kept card is offered once its deposit is approved (session-store.ts).
 * The order id is named by the session and the form's one-time submission
 * key, so a second submit of one form (a double click, a browser's retry, a
 * reload of the POST) answers the order the first made and processes nothing
 * again, also when the submits arrive together (decision 0015).
 */
import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { cardBrand, maskCard } from "../../shared/card.ts";
import { domainError, type FieldViolation } from "../../shared/errors.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { open as openSealed, seal } from "../../security/sealed-box.ts";
import { SUBMISSION_KEY_SHAPE, authToken, depositOrderId } from "../../shared/session-tokens.ts";
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

export interface DepositForm {
  sessionToken: string;
  amountMinor: number;
  currency: string;
  source: CardSource | undefined;
  requesterIp: string;
  /** The Cashier page after a 3-D Secure challenge: a path under /cashier/ or an address under CASHIER_PUBLIC_URL. */
  returnUrl: string;
  /** The one-time key of this rendering of the form: it names the order within the session. */
  submissionKey: string;
}

/** A saved card's number is sealed to the customer's card, so a row moved to another customer cannot be opened. */
export const savedCardBinding = (merchantId: string, pin: string, cardFingerprint: string) => `saved-card:${merchantId}:${pin}:${cardFingerprint}`;

/** The return address after a 3-D Secure challenge: only the Cashier's own pages. */
export function cashierReturnUrl(publicUrl: string, given: string): string | undefined {
  const base = publicUrl.replace(/\/+$/, "");
  if (given.startsWith("/cashier/") && !given.startsWith("//")) return `${base}${given}`;
  if (given.startsWith(`${base}/cashier/`)) return given;
  return undefined;
}

export async function submitDeposit(deps: CashierDeps, form: DepositForm): Promise<FormResult> {
  const opened = await openSession(deps, form.sessionToken);
  if (!opened.ok) return opened;
  const { session: s, merchant, frontend } = opened.open;
  if (s.intent !== "deposit") return { ok: false, error: domainError("INVALID_STATE", "this Cashier session is for a withdrawal") };

  const violations: FieldViolation[] = amountViolations("deposit", s, opened.open, form.amountMinor, form.currency);
  const returnUrl = cashierReturnUrl(deps.publicUrl(), form.returnUrl);
  if (!returnUrl || form.returnUrl.length > 200)
    violations.push({ field: "return_url", description: "must be a page of the Cashier (a path under /cashier/)" });
  if (form.requesterIp !== "" && !isIP(form.requesterIp)) violations.push({ field: "requester_ip", description: "must be an IPv4 or IPv6 address" });
  if (!SUBMISSION_KEY_SHAPE.test(form.submissionKey))
    violations.push({ field: "submission_key", description: "is required: the form's one-time key, 22 to 64 characters of base64url" });
  const src = form.source;
  if (!src) violations.push({ field: "new_card", description: "is required: a new card or a saved_card_id" });
  let card = { number: "", cvv: "", expiry: "" };
  if (src?.kind === "new") {
    violations.push(...textViolations([["new_card.holder", src.holder, 50]]));
    card = { number: src.number, cvv: src.cvv, expiry: src.expiry };
  } else if (src?.kind === "saved") {
    const saved = await offeredSavedCard(deps, opened.open, src.id);
    if (!saved) violations.push({ field: "saved_card_id", description: "names none of your saved cards" });
    else
      card = {
        number: openSealed(deps.keys.encryption, saved.cardSealed, savedCardBinding(s.merchantId, s.pin, saved.cardFingerprint)),
        cvv: src.cvv,
        expiry: saved.cardExpiry,
      };
    if (src.cvv === "") violations.push({ field: "saved_card_cvv", description: "is required: the card's security code" });
  }
  if (violations.length > 0 || !src || !returnUrl) return { ok: false, error: invalid(violations) };

  const orderId = depositOrderId(deps.keys.tokenHash, s.nonce, form.submissionKey);
  const input = formInput(s, { type: "sale", orderId, amountMinor: form.amountMinor, card, requesterIp: form.requesterIp, returnUrl });
  const result = await processTransaction(deps, input, undefined, customerOrigin(s, authToken(deps.keys.tokenHash, s.nonce)));
  if (!result.ok) return (await sessionOrderAnswer(deps, s, orderId, result.error)) ?? { ok: false, error: inFormNames(result.error, src.kind) };
  const a = result.attempt;
  // Kept only when the frontend allows it, and never for a deposit that already failed (nor again on a repeat).
  if (!result.replayed && src.kind === "new" && src.save && frontend.settings.saveCards && a.status !== "declined" && a.status !== "cancelled") {
    const cardFingerprint = fingerprint(deps.keys.cardFingerprint, card.number);
    await deps.sessions.saveCard({
      id: randomUUID(),
      merchantId: merchant.id,
      pin: s.pin,
      cardMasked: maskCard(card.number),
      cardBrand: cardBrand(card.number),
      cardExpiry: card.expiry,
      cardFingerprint,
      cardSealed: seal(deps.keys.encryption, card.number, savedCardBinding(merchant.id, s.pin, cardFingerprint)),
      holder: src.holder,
      orderRef: a.orderRef,
    });
  }
  return { ok: true, attempt: a, replayed: result.replayed };
}
