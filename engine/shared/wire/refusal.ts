/**
 * A refused Process request as the platform reads it: its description (every field named; when that is too
 * long for the seed's varchar(256), the names first and the reasons as far as
 * they fit), and the reply's JSON text, signed when the request named a
 * merchant the engine knows (CONTRACT section 2).
 */
import { REASONS, describeViolations, inCallerNames, type DomainError, type FieldViolation } from "../errors.ts";
import { MAX_DESCRIPTION } from "../canonical.ts";
import type { HmacKey } from "../hmac.ts";
import { refusalReply } from "./process-reply.ts";
import { WIRE_NAMES } from "./wire-names.ts";

/** Every field named; the names first when all of it does not fit. */
export function describeForReply(violations: FieldViolation[]): string {
  const full = describeViolations(violations);
  if ([...full].length <= MAX_DESCRIPTION) return full;
  return `Invalid fields: ${violations.map((v) => v.field).join(", ")}. ${full}`;
}

/** A domain refusal with its fields in the seed's member names. */
export const inWireNames = (e: DomainError): DomainError => inCallerNames(e, WIRE_NAMES);

/** The reply's JSON text for a refusal whose fields are already in the seed's names. */
export function refusalJson(e: DomainError, key: HmacKey | undefined): string {
  const description = e.violations.length > 0 ? describeForReply(e.violations) : e.message;
  return refusalReply(REASONS[e.reason].status, description, key);
}
