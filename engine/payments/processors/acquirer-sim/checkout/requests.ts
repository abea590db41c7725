/**
 * Checkout.com's request bodies as the stand-in reads them: a card payment,
 * a card payout (a payment with a `destination`) and a refund, checked as
 * Checkout.com checks them and refused with its error codes (422
 * request_invalid, every fault at once).
 */
import { cardBrand, luhnValid } from "../../../../shared/card.ts";
import { isCurrency } from "../../../../shared/money.ts";

/** The card, as far as the ledger may keep it. */
export interface CardSeen {
  number: string;
  expiry_month: number;
  expiry_year: number;
}

export interface SaleRequest {
  kind: "sale";
  card: CardSeen;
  amount: number;
  currency: string;
  reference?: string;
  capture: boolean;
  threeDs: boolean;
  /** payment_type MOTO: a mail or telephone order, out of scope of strong customer authentication. */
  moto: boolean;
  success_url?: string;
  failure_url?: string;
  processing_channel_id: string;
  metadata?: Record<string, unknown>;
}

export interface PayoutRequest {
  kind: "payout";
  card: CardSeen;
  amount: number;
  currency: string;
  reference?: string;
  processing_channel_id: string;
  /** The currency account paid from (ca_...). */
  source_id: string;
  metadata?: Record<string, unknown>;
}

export interface RefundRequest {
  amount?: number;
  reference?: string;
}

type Checked<T> = { ok: true; value: T } | { ok: false; codes: string[] };

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function checkCard(c: Record<string, unknown>, codes: string[], now: Date): CardSeen | undefined {
  const number = c.number;
  if (number === undefined) codes.push("card_number_required");
  else if (typeof number !== "string" || !/^\d{12,19}$/.test(number) || !luhnValid(number)) codes.push("card_number_invalid");
  const month = c.expiry_month;
  const year = c.expiry_year;
  if (month === undefined) codes.push("card_expiry_month_required");
  else if (!Number.isInteger(month) || (month as number) < 1 || (month as number) > 12) codes.push("card_expiry_month_invalid");
  if (year === undefined) codes.push("card_expiry_year_required");
  else if (!Number.isInteger(year) || (year as number) < 1000 || (year as number) > 9999) codes.push("card_expiry_year_invalid");
  if (c.cvv !== undefined && (typeof c.cvv !== "string" || !/^\d{3,4}$/.test(c.cvv))) codes.push("cvv_invalid");
  if (codes.length > 0) return undefined;
  const expiresAfter = Date.UTC(year as number, month as number, 1);
  if (expiresAfter <= now.getTime()) codes.push("card_expired");
  return { number: number as string, expiry_month: month as number, expiry_year: year as number };
}

function checkCommon(b: Record<string, unknown>, codes: string[]): void {
  if (b.amount === undefined) codes.push("amount_required");
  else if (!Number.isSafeInteger(b.amount) || (b.amount as number) <= 0) codes.push("amount_invalid");
  if (b.currency === undefined) codes.push("currency_required");
  else if (typeof b.currency !== "string" || !isCurrency(b.currency)) codes.push("currency_invalid");
  if (b.reference !== undefined && (typeof b.reference !== "string" || b.reference.length > 80)) codes.push("reference_invalid");
  if (b.processing_channel_id === undefined) codes.push("processing_channel_id_required");
  else if (typeof b.processing_channel_id !== "string" || !/^pc_\w{26}$/.test(b.processing_channel_id)) codes.push("processing_channel_id_invalid");
  if (b.metadata !== undefined && !obj(b.metadata)) codes.push("metadata_invalid");
}

const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v) && URL.canParse(v);

/** POST /payments: a card sale, or a card payout when the body has a `destination`. */
/** The payment types the stand-in takes (Checkout.com's list, less Installment). */
const PAYMENT_TYPES: ReadonlySet<string> = new Set(["Regular", "Recurring", "MOTO", "Unscheduled"]);

export function readPaymentRequest(body: unknown, now: Date): Checked<SaleRequest | PayoutRequest> {
  const b = obj(body);
  if (!b) return { ok: false, codes: ["request_body_invalid"] };
  const codes: string[] = [];
  checkCommon(b, codes);
  const destination = obj(b.destination);
  if (b.destination !== undefined) {
    const source = obj(b.source);
    if (source?.type !== "currency_account" || typeof source.id !== "string" || !/^ca_\w{26}$/.test(source.id)) codes.push("source_invalid");
    if (destination?.type !== "card") return { ok: false, codes: [...codes, "destination_invalid"] };
    const holder = obj(destination.account_holder);
    if (!holder) codes.push("account_holder_required");
    else {
      if (typeof holder.first_name !== "string" || holder.first_name === "") codes.push("account_holder_first_name_required");
      if (typeof holder.last_name !== "string" || holder.last_name === "") codes.push("account_holder_last_name_required");
    }
    const card = checkCard(destination, codes, now);
    if (!card || codes.length > 0) return { ok: false, codes };
    return {
      ok: true,
      value: {
        kind: "payout",
        card,
        amount: b.amount as number,
        currency: b.currency as string,
        reference: b.reference as string | undefined,
        processing_channel_id: b.processing_channel_id as string,
        source_id: (source as Record<string, string>).id,
        metadata: obj(b.metadata),
      },
    };
  }
  const source = obj(b.source);
  if (!source) return { ok: false, codes: [...codes, "payment_source_required"] };
  if (source.type !== "card") return { ok: false, codes: [...codes, "payment_source_type_invalid"] };
  const card = checkCard(source, codes, now);
  if (b.capture !== undefined && typeof b.capture !== "boolean") codes.push("capture_invalid");
  const threeDs = obj(b["3ds"]);
  if (b["3ds"] !== undefined && (!threeDs || (threeDs.enabled !== undefined && typeof threeDs.enabled !== "boolean"))) codes.push("3ds_invalid");
  if (b.success_url !== undefined && !isUrl(b.success_url)) codes.push("success_url_invalid");
  if (b.payment_type !== undefined && !PAYMENT_TYPES.has(b.payment_type as string)) codes.push("payment_type_invalid");
  const moto = b.payment_type === "MOTO";
  // No customer is at a browser on a mail or telephone order: 3-D Secure cannot be asked for.
  if (moto && threeDs?.enabled === true) codes.push("3ds_not_supported_for_moto");
  if (b.failure_url !== undefined && !isUrl(b.failure_url)) codes.push("failure_url_invalid");
  if (!card || codes.length > 0) return { ok: false, codes };
  return {
    ok: true,
    value: {
      kind: "sale",
      card,
      amount: b.amount as number,
      currency: b.currency as string,
      reference: b.reference as string | undefined,
      capture: b.capture !== false,
      threeDs: threeDs?.enabled === true,
      moto,
      success_url: b.success_url as string | undefined,
      failure_url: b.failure_url as string | undefined,
      processing_channel_id: b.processing_channel_id as string,
      metadata: obj(b.metadata),
    },
  };
}

/** POST /payments/{id}/refunds: an optional amount (all that is left when absent) and reference. */
export function readRefundRequest(body: unknown): Checked<RefundRequest> {
  const b = body === null ? {} : obj(body);
  if (!b) return { ok: false, codes: ["request_body_invalid"] };
  const codes: string[] = [];
  if (b.amount !== undefined && (!Number.isSafeInteger(b.amount) || (b.amount as number) <= 0)) codes.push("amount_invalid");
  if (b.reference !== undefined && (typeof b.reference !== "string" || b.reference.length > 80)) codes.push("reference_invalid");
  return codes.length > 0
    ? { ok: false, codes }
    : { ok: true, value: { amount: b.amount as number | undefined, reference: b.reference as string | undefined } };
}

/** What of a card the stand-in keeps: bin, last four, expiry, scheme. */
export function cardFacts(c: CardSeen): { bin: string; last4: string; expiry_month: number; expiry_year: number; scheme: string } {
  const brand = cardBrand(c.number);
  const scheme = { VISA: "Visa", MC: "Mastercard", AMEX: "Amex", DINERS: "Diners", DISCOVER: "Discover", JCB: "JCB" }[brand] ?? "Unknown";
  return { bin: c.number.slice(0, 6), last4: c.number.slice(-4), expiry_month: c.expiry_month, expiry_year: c.expiry_year, scheme };
}
