/**
 * The session start JSON body (`POST /api/session`, the hosted Cashier's
 * InitPayIn / InitPayOut) -> a typed StartSessionRequest, judged exactly as
 * the Process body is (process-request.ts): only the wire's own typing here
 * (strings where it says varchar, JSON integers where it says int, no objects
 * or arrays, `amount` and `balance` in the wire's unit incl. the whole-unit
 * currencies); what breaks it travels in the same call as `wire_violations`
 * for the engine to refuse and sign. Every business rule is the engine's.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { SessionIntent, type StartSessionRequest, StartSessionRequestSchema } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { WireViolationKind } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { canonicalString, type Scalar } from "../../engine/shared/canonical.ts";
import { ownEntry } from "../../engine/shared/own-entry.ts";
import { wireAmountToMinor } from "./amount.ts";
import { type Body, customerOf, stringMember, typeViolations, type WireViolation } from "./json-types.ts";

const STRING_FIELDS = [
  "intent",
  "merchant_id",
  "frontend",
  "pin",
  "currency",
  "order_id",
  "email",
  "first_name",
  "last_name",
  "country",
  "state",
  "zip",
  "city",
  "address",
  "dob",
  "requester_ip",
  "locale",
  "return_url",
  "notification_url",
  "sc_order_id",
  "udef1",
  "udef2",
  "version",
  "signature",
] as const;
const INT_FIELDS = ["amount", "balance", "timestamp"] as const;

const INTENTS: Record<string, SessionIntent> = { deposit: SessionIntent.DEPOSIT, withdrawal: SessionIntent.WITHDRAWAL, fields: SessionIntent.FIELDS };

/** Members whose JSON type the session start does not allow, each named. */
export function sessionTypeViolations(body: Body): WireViolation[] {
  return typeViolations(body, { strings: STRING_FIELDS, integers: INT_FIELDS });
}

const s = stringMember;

export interface SessionDecodeResult {
  ok: boolean;
  request: StartSessionRequest;
  violations: WireViolation[];
}

export function decodeSessionRequest(body: Body): SessionDecodeResult {
  const violations = sessionTypeViolations(body);
  const typed = violations.length === 0;
  const currency = s(body, "currency");
  // An optional amount stays absent when the body has none (null counts as none, as in the canonical string).
  const minor = (field: "amount" | "balance"): bigint | undefined => {
    const v = body[field];
    if (!typed || typeof v !== "number") return undefined;
    const converted = wireAmountToMinor(v, currency);
    if (converted.ok) return converted.minor;
    violations.push({ field, kind: WireViolationKind.AMOUNT_NOT_WHOLE });
    return undefined;
  };
  const amountMinor = minor("amount");
  const balanceMinor = minor("balance");
  const init: MessageInitShape<typeof StartSessionRequestSchema> = {
    merchantId: s(body, "merchant_id"),
    intent: ownEntry(INTENTS, s(body, "intent")) ?? SessionIntent.UNSPECIFIED,
    frontend: s(body, "frontend"),
    currency,
    amountMinor,
    balanceMinor,
    customer: customerOf(body),
    locale: s(body, "locale"),
    returnUrl: s(body, "return_url"),
    notificationUrl: s(body, "notification_url"),
    orderId: s(body, "order_id"),
    scOrderId: s(body, "sc_order_id"),
    udef1: s(body, "udef1"),
    udef2: s(body, "udef2"),
    timestamp: Number.isSafeInteger(body.timestamp) ? BigInt(body.timestamp as number) : undefined,
    version: s(body, "version"),
    // No canonical string for a body with an object member: it is refused for its members first.
    wireSignature: { canonical: typed ? canonicalString(body as Record<string, Scalar>) : "", signature: s(body, "signature") },
    wireViolations: violations,
  };
  return { ok: violations.length === 0, request: create(StartSessionRequestSchema, init), violations };
}
