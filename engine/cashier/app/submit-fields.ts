/**
 * The hosted payment fields' form (CONTRACT 12): the card of a `fields`
 * session -> the card rules of Process (validate-process.ts itself, so the two
 * cannot drift) -> a card token, minted with 256 random bits, stored by its
 * keyed hash with the number and CVV sealed as a saved card's number is, and
 * bound to the session's merchant, frontend and pin. The token goes back to
 * the page once and is never stored; Process uses it once
 * (payments/app/card-token-use.ts) before CASHIER_CARD_TOKEN_TTL_SECONDS pass.
 */
import { randomBytes } from "node:crypto";
import { cardBrand, maskCard } from "../../shared/card.ts";
import { domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { cardTokenHash, sealTokenCard, validateProcess } from "../../payments/index.ts";
import type { CashierDeps } from "../ports/ports.ts";
import { invalid, textViolations } from "./cashier-forms.ts";
import { openSession } from "./cashier-session.ts";

/** The fields form as the page sends it (the card's shape already read by the edge). */
export interface FieldsForm {
  sessionToken: string;
  card: { number: string; expiry: string; cvv: string };
  holder: string;
}

export interface MintedToken {
  cardToken: string;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  expiresAt: Date;
}

export type FieldsResult = ({ ok: true } & MintedToken) | { ok: false; error: DomainError };

/** The Process rules' names -> SubmitFieldsRequest's field paths. */
const FORM_NAMES: Record<string, string> = { cardNumber: "card.number", cvv: "card.cvv", cardExp: "card.expiry" };

/** Process's card rules on the form's card, a CVV required (a token may pay a sale), and the holder's name. */
export function fieldsViolations(f: FieldsForm, now: Date): FieldViolation[] {
  const asSale = validateProcess(
    {
      merchantId: "",
      orderId: "",
      type: "sale",
      amountMinor: 1,
      currency: "",
      card: f.card,
      customer: {
        pin: "",
        email: "",
        firstName: "",
        lastName: "",
        dob: "",
        phone: "",
        requesterIp: "",
        address: "",
        city: "",
        country: "",
        state: "",
        zip: "",
      },
      frontend: "",
      returnUrl: "",
      notificationUrl: "",
      referenceId: "",
      timestamp: undefined,
      version: "",
      errorCode: 0,
      errorDetails: "",
    },
    { frontend: undefined, now },
  );
  const out = asSale.filter((v) => v.field in FORM_NAMES).map((v) => ({ field: FORM_NAMES[v.field], description: v.description }));
  const holder = f.holder.trim();
  if (holder === "") out.push({ field: "holder", description: "is required" });
  else out.push(...textViolations([["holder", f.holder, 64]]));
  return out;
}

export async function submitFields(deps: CashierDeps, form: FieldsForm): Promise<FieldsResult> {
  const opened = await openSession(deps, form.sessionToken);
  if (!opened.ok) return opened;
  const { session: s } = opened.open;
  if (s.intent !== "fields") return { ok: false, error: domainError("INVALID_STATE", "this Cashier session is not a hosted payment fields session") };
  const now = deps.now();
  const violations = fieldsViolations(form, now);
  if (violations.length > 0) return { ok: false, error: invalid(violations) };
  if (!deps.cardTokens) throw new Error("the engine was built without a card token store");
  const cardToken = randomBytes(32).toString("base64url");
  const hash = cardTokenHash(deps.keys.tokenHash, cardToken);
  const minted = {
    cardMasked: maskCard(form.card.number),
    cardBrand: cardBrand(form.card.number),
    cardExpiry: form.card.expiry,
    expiresAt: new Date(now.getTime() + deps.cardTokenTtlSeconds * 1000),
  };
  await deps.cardTokens.mint({
    tokenHash: hash,
    merchantId: s.merchantId,
    frontend: s.frontend,
    pin: s.pin,
    ...minted,
    cardFingerprint: fingerprint(deps.keys.cardFingerprint, form.card.number),
    ...sealTokenCard(deps.keys.encryption, hash, form.card),
    holder: form.holder.trim().replace(/\s+/g, " "),
  });
  return { ok: true, cardToken, ...minted };
}
