/**
 * Errors are data with stable reasons. This is the one table that maps each
 * reason to its gRPC code (engine), its HTTP status and wire `status` (edge);
 * the wire statuses are the catalogue published in the README and in
 * proto/cashier/engine/v1/errors.proto (ErrorReason), which a test keeps equal.
 */
import { ownEntry } from "./own-entry.ts";

export interface FieldViolation {
  field: string;
  description: string;
  /** The rule broken, named stably for a client that words it itself (errors.proto); absent for most. */
  rule?: string;
}

export type GrpcCodeName =
  | "INVALID_ARGUMENT"
  | "UNAUTHENTICATED"
  | "DEADLINE_EXCEEDED"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "NOT_FOUND"
  | "RESOURCE_EXHAUSTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "UNIMPLEMENTED";

export interface ReasonInfo {
  grpc: GrpcCodeName;
  http: number;
  /** The wire `status` of the Process reply. */
  status: number;
}

export const REASONS = {
  MALFORMED_BODY: { grpc: "INVALID_ARGUMENT", http: 400, status: 1 },
  INVALID_FIELDS: { grpc: "INVALID_ARGUMENT", http: 400, status: 2 },
  UNKNOWN_MERCHANT: { grpc: "UNAUTHENTICATED", http: 401, status: 3 },
  SIGNATURE_INVALID: { grpc: "UNAUTHENTICATED", http: 401, status: 4 },
  TIMESTAMP_OUT_OF_WINDOW: { grpc: "UNAUTHENTICATED", http: 401, status: 5 },
  ORDER_CONFLICT: { grpc: "ALREADY_EXISTS", http: 409, status: 6 },
  PAYLOAD_TOO_LARGE: { grpc: "RESOURCE_EXHAUSTED", http: 413, status: 7 },
  UNSUPPORTED_MEDIA_TYPE: { grpc: "INVALID_ARGUMENT", http: 415, status: 8 },
  REFERENCE_NOT_FOUND: { grpc: "FAILED_PRECONDITION", http: 400, status: 9 },
  REFERENCE_NOT_REFUNDABLE: { grpc: "FAILED_PRECONDITION", http: 400, status: 10 },
  REFUND_EXCEEDS_REMAINING: { grpc: "FAILED_PRECONDITION", http: 400, status: 11 },
  NOT_FOUND: { grpc: "NOT_FOUND", http: 404, status: 12 },
  NO_ROUTE: { grpc: "UNIMPLEMENTED", http: 404, status: 13 },
  METHOD_NOT_ALLOWED: { grpc: "UNIMPLEMENTED", http: 405, status: 14 },
  INVALID_STATE: { grpc: "FAILED_PRECONDITION", http: 409, status: 15 },
  ALREADY_EXISTS: { grpc: "ALREADY_EXISTS", http: 409, status: 16 },
  CAPABILITY_MISSING: { grpc: "FAILED_PRECONDITION", http: 400, status: 17 },
  AUTOLOGIN_UNUSABLE: { grpc: "FAILED_PRECONDITION", http: 410, status: 18 },
  SESSION_ENDED: { grpc: "FAILED_PRECONDITION", http: 410, status: 19 },
  NOT_ALLOWED_BY_FRONTEND: { grpc: "FAILED_PRECONDITION", http: 403, status: 20 },
  RATE_LIMITED: { grpc: "RESOURCE_EXHAUSTED", http: 429, status: 21 },
  REQUEST_TIMEOUT: { grpc: "DEADLINE_EXCEEDED", http: 408, status: 22 },
  INTERNAL: { grpc: "INTERNAL", http: 500, status: -1 },
  UNAVAILABLE: { grpc: "UNAVAILABLE", http: 503, status: -2 },
} as const satisfies Record<string, ReasonInfo>;

export type Reason = keyof typeof REASONS;

/** A refusal as data: a stable reason, a sentence for people, the fields at fault. */
export interface DomainError {
  reason: Reason;
  message: string;
  violations: FieldViolation[];
}

export function domainError(reason: Reason, message: string, violations: FieldViolation[] = []): DomainError {
  return { reason, message, violations };
}

/** "cardNumber: fails the Luhn check; zip: is required for US" */
export function describeViolations(violations: FieldViolation[]): string {
  return violations.map((v) => `${v.field}: ${v.description}`).join("; ");
}

/**
 * A refusal in a caller's names: every violation's field renamed through the
 * table (a name it does not hold, such as a member the wire alone knows, stays
 * as it is), and a refusal that names fields described by them, so the
 * message and the violations always agree.
 */
export function inCallerNames(e: DomainError, names: Readonly<Record<string, string>>): DomainError {
  if (e.violations.length === 0) return e;
  const violations = e.violations.map((v) => ({ ...v, field: ownEntry(names, v.field) ?? v.field }));
  return { ...e, violations, message: describeViolations(violations) };
}

/**
 * Cashier's own decline codes (Process `error_code`). 1-99 are the processor's
 * ISO 8583 response code as a number; these start at 9000 (errors.proto ErrorCode).
 */
export const ERROR_CODES = {
  PROCESSOR_UNAVAILABLE: 9001,
  VALIDATION_REJECTED: 9002,
  VALIDATION_UNAVAILABLE: 9003,
  THREE_DS_FAILED: 9004,
  THREE_DS_EXPIRED: 9005,
  PROCESSOR_DECLINED_OTHER: 9006,
  OPERATOR_DECISION: 9007,
  /** An operator's block (the customer, a card, an e-mail or a BIN) refused the transaction before any processor was called. */
  CUSTOMER_BLOCKED: 9008,
  /** One of the merchant's risk rules (velocity, country mismatch, deposit limit) refused the transaction before any processor was called. */
  RISK_DECLINED: 9009,
} as const;

/** What an engine answers (UNAVAILABLE, with its ErrorDetail) when its database is not there; the edge tells that from an unreachable engine by the ErrorDetail, not by these words. */
export const DATABASE_UNAVAILABLE = "the database is unavailable; retry later";

/** A thrown wrapper for the few places that must unwind (inside a DB transaction). */
export class DomainFailure extends Error {
  readonly error: DomainError;
  constructor(error: DomainError) {
    super(error.message);
    this.error = error;
  }
}
