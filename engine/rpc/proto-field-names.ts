/**
 * The domain names a Process field as the seed's wire does (card_number,
 * currency). A direct gRPC caller sent a ProcessRequest, so its errors name
 * that message's fields instead (card.number, amount.currency).
 */
import { describeViolations, type DomainError } from "../domain/errors.ts";
import { ownEntry } from "../domain/own-entry.ts";

const CUSTOMER = ["pin", "email", "first_name", "last_name", "dob", "phone", "address", "city", "country", "state", "zip", "requester_ip"];

export const PROTO_FIELD: Record<string, string> = {
  amount: "amount.amount_minor",
  currency: "amount.currency",
  card_number: "card.number",
  cvv: "card.cvv",
  card_exp: "card.expiry",
  ...Object.fromEntries(CUSTOMER.map((f) => [f, `customer.${f}`])),
};

export function withProtoFieldNames(e: DomainError): DomainError {
  const violations = e.violations.map((v) => ({ ...v, field: ownEntry(PROTO_FIELD, v.field) ?? v.field }));
  const message = e.reason === "INVALID_FIELDS" && violations.length > 0 ? describeViolations(violations) : e.message;
  return { ...e, violations, message };
}
