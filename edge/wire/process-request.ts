/**
 * The seed 2.1 JSON body -> a typed ProcessRequest. Only the wire's own typing
 * is judged here (a JSON integer where the seed says int, a string where it
 * says varchar, no objects or arrays); what breaks it travels in the same
 * request (`wire_violations`: the member and a kind), for the engine to refuse
 * and sign in its own words. Every business rule is the engine's. The
 * canonical string for the signature is taken from the body as received.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type ProcessRequest, ProcessRequestSchema, WireViolationKind } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { canonicalString, type Scalar } from "../../engine/shared/canonical.ts";
import { ownEntry } from "../../engine/shared/own-entry.ts";
import { wireAmountToMinor } from "./amount.ts";
import { type Body, customerOf, stringMember, typeViolations, type WireViolation } from "./json-types.ts";

export type { WireViolation };

const STRING_FIELDS = [
  "currency",
  "card_number",
  "cvv",
  "card_exp",
  "card_token",
  "pin",
  "dob",
  "email",
  "requester_ip",
  "address",
  "city",
  "country",
  "first_name",
  "last_name",
  "state",
  "zip",
  "frontend",
  "merchant_id",
  "return_url",
  "notification_url",
  "order_id",
  "transaction_type",
  "reference_id",
  "error_details",
  "version",
  "signature",
] as const;
const INT_FIELDS = ["amount", "timestamp", "error_code"] as const;
/** Every member the interface defines for Process (`phone` is the one of customerOf's that no list above holds). */
const KNOWN_MEMBERS = new Set<string>([...STRING_FIELDS, ...INT_FIELDS, "phone"]);

/** Members the interface does not define, as the canonical string writes their values (nulls dropped, as there). */
function unknownMembers(body: Body): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!KNOWN_MEMBERS.has(name) && value !== null && value !== undefined) out[name] = String(value);
  }
  return out;
}

const TYPES: Record<string, TransactionType> = {
  sale: TransactionType.SALE,
  payout: TransactionType.PAYOUT,
  refund: TransactionType.REFUND,
};

/** The request for the engine, always; `ok` when no member broke the wire's typing (`violations`, also in the request). */
export interface DecodeResult {
  ok: boolean;
  request: ProcessRequest;
  violations: WireViolation[];
}

/** Members whose JSON type the interface does not allow, each named. */
export function wireTypeViolations(body: Body): WireViolation[] {
  return typeViolations(body, { strings: STRING_FIELDS, integers: INT_FIELDS });
}

const s = stringMember;
/** A JSON integer member; anything else (already a violation) is left at zero. */
const n = (body: Body, f: string): bigint => (Number.isSafeInteger(body[f]) ? BigInt(body[f] as number) : 0n);

export function decodeProcessRequest(body: Body): DecodeResult {
  const violations = wireTypeViolations(body);
  const typed = violations.length === 0;
  const currency = s(body, "currency");
  let amountMinor = 0n;
  if (typed && typeof body.amount === "number") {
    const converted = wireAmountToMinor(body.amount, currency);
    if (converted.ok) amountMinor = converted.minor;
    else violations.push({ field: "amount", kind: WireViolationKind.AMOUNT_NOT_WHOLE });
  }
  const init: MessageInitShape<typeof ProcessRequestSchema> = {
    merchantId: s(body, "merchant_id"),
    orderId: s(body, "order_id"),
    // Only the table's own words: "constructor" or "__proto__" is no type (the engine names the field).
    transactionType: ownEntry(TYPES, s(body, "transaction_type")) ?? TransactionType.UNSPECIFIED,
    amount: { amountMinor, currency },
    card: { number: s(body, "card_number"), cvv: s(body, "cvv"), expiry: s(body, "card_exp") },
    customer: customerOf(body),
    frontend: s(body, "frontend"),
    returnUrl: s(body, "return_url"),
    notificationUrl: s(body, "notification_url"),
    referenceId: s(body, "reference_id"),
    // Absent stays absent: the engine tells a missing timestamp (400) from a stale one (401).
    timestamp: Number.isSafeInteger(body.timestamp) ? BigInt(body.timestamp as number) : undefined,
    version: s(body, "version"),
    errorCode: n(body, "error_code"),
    errorDetails: s(body, "error_details"),
    cardToken: s(body, "card_token"),
    // A body with an object or array member has no canonical string (CONTRACT section 2; String() of one
    // nested 30,000 deep would not even return): it is refused for its members before any signature is checked.
    wireSignature: {
      canonical: typed ? canonicalString(body as Record<string, Scalar>) : "",
      signature: s(body, "signature"),
      // Signed, and part of the order's parameters (an order's parameters are all its members but timestamp and signature).
      unknownMembers: typed ? unknownMembers(body) : {},
    },
    wireViolations: violations,
  };
  return { ok: violations.length === 0, request: create(ProcessRequestSchema, init), violations };
}
