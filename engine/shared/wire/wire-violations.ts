/**
 * The edge's findings about a body's JSON types (a string where the seed says
 * int, an object anywhere, cents that are no whole minor unit), refused by the
 * engine as INVALID_FIELDS in the same Process call. The edge sends only the
 * member and a kind; the words are written here, so the engine signs no text
 * a caller chose beyond a member name of at most 50 of [A-Za-z0-9_].
 */
import { WireViolationKind } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { currencyExponent, WHOLE_UNIT_CURRENCIES } from "../money.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../errors.ts";
import { ownEntry } from "../own-entry.ts";

export interface WireViolation {
  field: string;
  kind: WireViolationKind;
}

const WORDS: Record<number, string> = {
  [WireViolationKind.NOT_SCALAR]: "must be a scalar, not an object or array",
  [WireViolationKind.NOT_STRING]: "must be a JSON string",
  [WireViolationKind.NOT_INTEGER]: "must be a JSON integer",
  [WireViolationKind.NOT_INTEGER_OR_STRING]: "must be a JSON integer or a string of digits",
  [WireViolationKind.BAD_NAME]: "is no member name a signature can carry (empty, __proto__, or holding an ampersand, an equals sign or a control character)",
  [WireViolationKind.NOT_UNICODE]: "must be Unicode text (it holds half of a surrogate pair alone)",
  [WireViolationKind.INTEGER_TOO_LARGE]: `is an integer beyond ${Number.MAX_SAFE_INTEGER} (2^53 - 1), which JSON readers cannot hold exactly`,
};

/** A member name as the edge renders one it may echo: the name itself, or its safe form marked "(renamed)". */
const MEMBER = /^[A-Za-z0-9_]{1,50}( \(renamed\))?$/;

/** "ISK has 0 decimals: the amount in cents must be a multiple of 100". */
function amountWords(currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return "is not a whole number of the currency's minor units";
  const shift = (WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2) - exponent;
  return `${currency} has ${exponent} decimals: the amount in cents must be a multiple of ${10 ** Math.max(shift, 0)}`;
}

export function describeWireViolation(v: WireViolation, currency: string): FieldViolation {
  const field = MEMBER.test(v.field) ? v.field : "(a member)";
  const words =
    v.kind === WireViolationKind.AMOUNT_NOT_WHOLE
      ? amountWords(currency)
      : v.kind === WireViolationKind.INTEGER_TOO_LARGE && field === "phone"
        ? `${WORDS[v.kind]}: send the phone as a string of digits`
        : ownEntry(WORDS, v.kind);
  return { field, description: words ?? "has a JSON type the seed does not allow" };
}

/** The refusal of a body with these members, every one named (by its wire name). */
export function wireViolationsError(violations: readonly WireViolation[], currency: string): DomainError {
  const described = violations.map((v) => describeWireViolation(v, currency));
  return domainError("INVALID_FIELDS", describeViolations(described), described);
}
