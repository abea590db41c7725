/**
 * Validation (seed 2.3 and 2.4, typed as CONTRACT section 6 says): the request
 * in snake_case with `version` and `timestamp` as strings and `amount` an
 * integer in cents (only JPY, CLP, KRW and VND unconverted, as seed 2.3 and
 * section 8 say), signed with `signature`; the reply read
 * strictly: a JSON object of scalars with an integer `status` and a
 * `signature` over its own members. Anything else is unusable, with a reason;
 * a reply cut at the sender's bound (64 KiB) is read as it was cut.
 */
import type { SendResult } from "../ports/callbacks.ts";
import { parseJsonObject, unparsableReply } from "./reply-ack.ts";
import { VALIDATION_WHOLE_UNIT_CURRENCIES, wireAmount } from "../../shared/money.ts";
import { canonicalString, signBody, type Scalar } from "../../shared/canonical.ts";
import { verifyHmac, type HmacKey } from "../../shared/hmac.ts";
import { API_VERSION, type Attempt } from "../../shared/transaction.ts";

export function validationRequestBody(a: Attempt, authToken: string, nowSeconds: number, key: HmacKey): string {
  const members: Record<string, Scalar> = {
    transaction_type: a.type,
    transaction_status: a.type === "payout" ? "requested" : "pending",
    transaction_id: null,
    trace_id: a.traceId,
    order_id: a.orderId,
    frontend: a.frontend,
    pin: a.pin,
    // Seed 2.3: cents, only JPY, CLP, KRW and VND as they are (BHD 5.000 -> 500).
    amount: wireAmount(a.amountMinor, a.currency, VALIDATION_WHOLE_UNIT_CURRENCIES),
    currency: a.currency,
    payment_method: "CreditCard",
    created_by: a.createdBy,
    auth_token: authToken,
    merchant_id: a.merchantId,
    version: API_VERSION,
    timestamp: String(nowSeconds),
  };
  return JSON.stringify({ ...members, signature: signBody(key, members) });
}

export type ValidationReply = { usable: true; status: number; description: string } | { usable: false; error: string };

/** `keys`: the merchant's current secret, then the previous one while its overlap lasts. */
export function readValidationReply(r: SendResult, ...keys: HmacKey[]): ValidationReply {
  if (r.error) return { usable: false, error: r.error };
  if (r.httpStatus < 200 || r.httpStatus > 299) return { usable: false, error: `HTTP ${r.httpStatus}` };
  const parsed = parseJsonObject(r.body);
  if (!parsed.ok) return { usable: false, error: r.cut ? unparsableReply(r, parsed.error) : `the reply is ${parsed.error}` };
  const reply = parsed.value;
  const nested = Object.keys(reply).find((k) => reply[k] !== null && typeof reply[k] === "object");
  if (nested) return { usable: false, error: `reply member ${nested} is an object or array` };
  if (typeof reply.status !== "number" || !Number.isInteger(reply.status)) return { usable: false, error: "the reply has no integer status" };
  if (typeof reply.signature !== "string" || reply.signature === "") return { usable: false, error: "the reply is not signed" };
  const canonical = canonicalString(reply as Record<string, Scalar>);
  const signature = reply.signature;
  if (!keys.some((k) => verifyHmac(k, canonical, signature))) return { usable: false, error: "the reply's signature is wrong" };
  return { usable: true, status: reply.status, description: typeof reply.description === "string" ? reply.description : "" };
}
