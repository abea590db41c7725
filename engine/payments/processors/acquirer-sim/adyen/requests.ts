/**
 * Adyen's request bodies as the stand-in reads them (Checkout API v71): a
 * card payment with the card in clear (`paymentMethod.number`; the
 * simulator cannot read Adyen's client-side encrypted fields), the details
 * call that finishes a redirect, and a refund. A fault is refused as Adyen
 * refuses it: 422, errorType validation, one error code and message.
 */
import { cardBrand, luhnValid } from "../../../../shared/card.ts";
import { isCurrency } from "../../../../shared/money.ts";
import type { Answer } from "../http.ts";
import { serviceError } from "./views.ts";

export interface AdyenPaymentRequest {
  merchantAccount: string;
  reference: string;
  value: number;
  currency: string;
  card: { number: string; expiryMonth: string; expiryYear: string; holderName?: string };
  returnUrl: string;
  /** shopperInteraction Moto: a mail or telephone order, never sent to 3-D Secure. */
  moto: boolean;
  /** additionalData.RequestedTestAcquirerResponseCode. */
  testCode?: string;
}

export interface AdyenRefundRequest {
  merchantAccount: string;
  value: number;
  currency: string;
  reference?: string;
}

type Read<T> = { ok: true; value: T } | { ok: false; answer: Answer };

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const invalid = (code: string, message: string): { ok: false; answer: Answer } => ({ ok: false, answer: serviceError(422, code, message, "validation") });
const missing = (field: string) => invalid("130", `Required field '${field}' is not provided.`);

function readAmount(b: Record<string, unknown>): Read<{ value: number; currency: string }> {
  const amount = obj(b.amount);
  if (!amount) return missing("amount");
  if (!Number.isSafeInteger(amount.value) || (amount.value as number) <= 0) return invalid("137", "Invalid amount specified");
  if (typeof amount.currency !== "string" || !isCurrency(amount.currency)) return invalid("138", "Unsupported currency specified");
  return { ok: true, value: { value: amount.value as number, currency: amount.currency } };
}

const SHOPPER_INTERACTIONS: ReadonlySet<string> = new Set(["Ecommerce", "ContAuth", "Moto", "POS"]);

/** POST /payments. */
export function readPaymentRequest(body: unknown): Read<AdyenPaymentRequest> {
  const b = obj(body);
  if (!b) return invalid("702", "Unable to parse the request body");
  if (b.shopperInteraction !== undefined && !SHOPPER_INTERACTIONS.has(b.shopperInteraction as string))
    return invalid("14_012", "Invalid shopperInteraction: Ecommerce, ContAuth, Moto or POS");
  const moto = b.shopperInteraction === "Moto";
  // A MOTO payment is keyed in by the merchant, once: no stored-card model.
  if (moto && b.recurringProcessingModel !== undefined) return invalid("14_013", "recurringProcessingModel is not allowed with shopperInteraction Moto");
  for (const field of ["merchantAccount", "reference", "returnUrl"]) if (typeof b[field] !== "string" || b[field] === "") return missing(field);
  if ((b.reference as string).length > 80) return invalid("132", "Reference too long");
  if (!URL.canParse(b.returnUrl as string)) return invalid("14_004", "Invalid returnUrl");
  const amount = readAmount(b);
  if (!amount.ok) return amount;
  const pm = obj(b.paymentMethod);
  if (!pm) return missing("paymentMethod");
  if (pm.type !== "scheme") return invalid("102", "Unable to determine variant: the simulator takes paymentMethod.type scheme");
  if (typeof pm.number !== "string")
    return invalid("102", "Unable to determine variant: the simulator takes the card as paymentMethod.number (no encrypted fields)");
  if (!/^\d{12,19}$/.test(pm.number) || !luhnValid(pm.number)) return invalid("101", "Invalid card number");
  if (typeof pm.expiryMonth !== "string" || !/^(0?[1-9]|1[0-2])$/.test(pm.expiryMonth) || typeof pm.expiryYear !== "string" || !/^\d{4}$/.test(pm.expiryYear)) {
    return invalid("129", "Expiry Date Invalid");
  }
  if (pm.cvc !== undefined && (typeof pm.cvc !== "string" || !/^\d{3,4}$/.test(pm.cvc))) return invalid("103", "CVC is not the right length");
  if (pm.holderName !== undefined && typeof pm.holderName !== "string") return invalid("128", "Card Holder Missing");
  const testCode = obj(b.additionalData)?.RequestedTestAcquirerResponseCode;
  return {
    ok: true,
    value: {
      merchantAccount: b.merchantAccount as string,
      reference: b.reference as string,
      ...amount.value,
      card: { number: pm.number, expiryMonth: pm.expiryMonth.padStart(2, "0"), expiryYear: pm.expiryYear, holderName: pm.holderName as string | undefined },
      returnUrl: b.returnUrl as string,
      moto,
      testCode: testCode === undefined ? undefined : String(testCode),
    },
  };
}

/** POST /payments/details: the redirectResult the shopper came back with. */
export function readDetailsRequest(body: unknown): Read<{ redirectResult: string }> {
  const details = obj(obj(body)?.details);
  if (!details) return missing("details");
  if (typeof details.redirectResult !== "string" || details.redirectResult === "") return missing("details.redirectResult");
  return { ok: true, value: { redirectResult: details.redirectResult } };
}

/** POST /payments/{pspReference}/refunds. */
export function readRefundRequest(body: unknown): Read<AdyenRefundRequest> {
  const b = obj(body);
  if (!b) return invalid("702", "Unable to parse the request body");
  if (typeof b.merchantAccount !== "string" || b.merchantAccount === "") return missing("merchantAccount");
  const amount = readAmount(b);
  if (!amount.ok) return amount;
  if (b.reference !== undefined && (typeof b.reference !== "string" || b.reference.length > 80)) return invalid("132", "Reference too long");
  return { ok: true, value: { merchantAccount: b.merchantAccount, ...amount.value, reference: b.reference as string | undefined } };
}

/** Adyen's variant for a card: visa, mc, amex... */
export function brandOf(number: string): string {
  const brand = cardBrand(number);
  return { VISA: "visa", MC: "mc", AMEX: "amex", DINERS: "diners", DISCOVER: "discover", JCB: "jcb", MAESTRO: "maestro", UNIONPAY: "cup" }[brand] ?? "card";
}
