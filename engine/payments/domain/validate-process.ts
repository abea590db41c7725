/**
 * Every rule of seed section 2.1 and CONTRACT section 3 for a Process request,
 * as a table of field (by the domain's names) -> checks. It returns every violation at once so a
 * platform fixes its request in one round; it never throws.
 */
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { isIP } from "node:net";
// The code tables alone: the package's Node entry also loads the country names of eighty-odd languages, which
// isValid never reads (about 20 ms a process).
import countries from "i18n-iso-countries/index.js";
// One function's file, not the package's index (about 30 ms a process).
import email from "validator/lib/isEmail.js";
import { cardNumberProblem } from "../../shared/card.ts";
import { CARD_NUMBER_IN_IDENTIFIER, cardNumberIn, cardNumberInUrl } from "../../shared/card-number-in-text.ts";
import { wireRepresentable, isCurrency, wireUnitProblem } from "../../shared/money.ts";
import { API_VERSION, type FrontendView, type ProcessInput } from "../../shared/transaction.ts";
import type { FieldViolation } from "../../shared/errors.ts";
import type { ProcessField } from "../../shared/wire/process-fields.ts";

export interface ValidationContext {
  /** The merchant's frontend named by the request, if it exists. */
  frontend: FrontendView | undefined;
  /** "Now", for expiry and date-of-birth checks. */
  now: Date;
}

type Check = (input: ProcessInput, ctx: ValidationContext) => string | undefined;

const STATE_COUNTRIES = new Set(["US", "CA", "AU"]);
const ZIP_COUNTRIES = new Set(["US", "CA"]);

const required = (value: string) => (value.trim() === "" ? "is required" : undefined);
/** Lengths are counted in characters (code points), as the seed's varchar sizes mean. */
const length = (value: string) => {
  let n = 0;
  for (const _ of value) n++;
  return n;
};
const maxLen = (value: string, n: number) => (length(value) > n ? `must be at most ${n} characters` : undefined);
const text =
  (get: (i: ProcessInput) => string, n: number, isRequired: boolean): Check =>
  (i) => {
    const v = get(i);
    if (isRequired && v.trim() === "") return "is required";
    return maxLen(v, n);
  };

function httpUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? undefined : "must be an http or https URL";
  } catch {
    return "must be an absolute http or https URL";
  }
}

/** Repeated digits (111111) or a run counting up or down (123456, 987654, 7890123). */
export function isDummyPhone(digits: string): boolean {
  if (/^(\d)\1+$/.test(digits)) return true;
  const step = (i: number) => (digits.charCodeAt(i + 1) - digits.charCodeAt(i) + 10) % 10;
  const first = step(0);
  if (first !== 1 && first !== 9) return false;
  for (let i = 1; i < digits.length - 1; i++) if (step(i) !== first) return false;
  return true;
}

/** MM/DD/YYYY or YYYY-MM-DD -> a real calendar date, or undefined. */
export function parseDob(value: string): Date | undefined {
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  const iso = us ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  let y: number, mo: number, d: number;
  if (us) [mo, d, y] = [Number(us[1]), Number(us[2]), Number(us[3])];
  else if (iso) [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return undefined;
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date : undefined;
}

/** An identifier the platform gets back as sent: refused, not masked, when it holds a card number (card-number-in-text.ts). */
const noCard =
  (get: (i: ProcessInput) => string, find: (text: string) => string | undefined = cardNumberIn): Check =>
  (i) =>
    find(get(i)) ? CARD_NUMBER_IN_IDENTIFIER : undefined;

const RULES: { [F in ProcessField]?: Check[] } = {
  merchantId: [text((i) => i.merchantId, 50, true)],
  orderId: [text((i) => i.orderId, 50, true), noCard((i) => i.orderId)],
  transactionType: [(i) => (i.type ? undefined : "must be sale, payout or refund")],
  amount: [
    // NaN: beyond 2^53 - 1 once in minor units (the mappers' safeNumber), e.g. a wire BHD amount times 10.
    (i) =>
      Number.isNaN(i.amountMinor)
        ? `must be a positive integer of at most ${Number.MAX_SAFE_INTEGER} minor units`
        : !Number.isSafeInteger(i.amountMinor) || i.amountMinor <= 0
          ? "must be a positive integer in minor units"
          : undefined,
    // Only gRPC callers can reach this: the wire cannot express such an amount.
    (i) => (Number.isSafeInteger(i.amountMinor) && !wireRepresentable(i.amountMinor, i.currency) ? wireUnitProblem(i.currency) : undefined),
  ],
  currency: [
    (i) => required(i.currency) ?? (isCurrency(i.currency) ? undefined : "must be an ISO 4217 currency code"),
    (i, ctx) =>
      ctx.frontend && isCurrency(i.currency) && !ctx.frontend.currencies.includes(i.currency)
        ? `is not accepted by frontend ${ctx.frontend.name} (accepts ${ctx.frontend.currencies.join(", ")})`
        : undefined,
  ],
  cardNumber: [(i) => cardNumberProblem(i.card.number)],
  cvv: [
    (i) => {
      const v = i.card.cvv;
      if (v === "") return i.type === "sale" ? "is required for sale" : undefined;
      return /^\d{3,4}$/.test(v) ? undefined : "must be 3 or 4 digits";
    },
  ],
  cardExp: [
    (i, ctx) => {
      const v = i.card.expiry;
      if (v === "") return "is required";
      const m = /^(\d{2})\/(\d{4})$/.exec(v);
      const month = m ? Number(m[1]) : 0;
      if (!m || month < 1 || month > 12) return "must be MM/YYYY";
      const year = Number(m[2]);
      const nowMonth = ctx.now.getUTCFullYear() * 12 + ctx.now.getUTCMonth();
      return year * 12 + (month - 1) < nowMonth ? "is in the past (card expired)" : undefined;
    },
  ],
  pin: [text((i) => i.customer.pin, 50, true), noCard((i) => i.customer.pin)],
  dob: [
    (i, ctx) => {
      const v = i.customer.dob;
      if (v === "") return undefined;
      const date = parseDob(v);
      if (!date) return "must be a real date, MM/DD/YYYY or YYYY-MM-DD";
      const today = Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth(), ctx.now.getUTCDate());
      return date.getTime() >= today ? "must be in the past" : undefined;
    },
  ],
  email: [
    noCard((i) => i.customer.email),
    (i) => required(i.customer.email) ?? maxLen(i.customer.email, 50) ?? (email.default(i.customer.email) ? undefined : "must be an e-mail address"),
  ],
  phone: [
    (i) => {
      const v = i.customer.phone;
      if (v === "") return undefined;
      if (!/^\d+$/.test(v)) return "must be digits only";
      if (v.length < 6 || v.length > 20) return "must be 6 to 20 digits";
      return isDummyPhone(v) ? "must not be a dummy sequence (repeated or counting digits)" : undefined;
    },
  ],
  requesterIp: [(i) => (i.customer.requesterIp === "" || isIP(i.customer.requesterIp) ? undefined : "must be an IPv4 or IPv6 address")],
  address: [text((i) => i.customer.address, 50, false)],
  city: [text((i) => i.customer.city, 50, false)],
  country: [
    (i) => {
      const c = i.customer.country;
      if (c === "") return "is required";
      // XK (Kosovo) is in the library's table but user-assigned, not ISO 3166-1's, which the contract asks for.
      return /^[A-Z]{2}$/.test(c) && c !== "XK" && countries.isValid(c) ? undefined : "must be an ISO 3166-1 alpha-2 code (upper case)";
    },
  ],
  firstName: [text((i) => i.customer.firstName, 25, true)],
  lastName: [text((i) => i.customer.lastName, 25, true)],
  state: [
    (i) => {
      const s = i.customer.state;
      const c = i.customer.country;
      if (STATE_COUNTRIES.has(c)) {
        if (s === "") return `is required for ${c}: its two-letter ISO 3166-2 code in upper case (such as NY or ON)`;
        return /^[A-Z]{2}$/.test(s) ? undefined : `must be the two-letter ISO 3166-2 code in upper case for ${c} (such as NY or ON)`;
      }
      return s.trim() === "" ? undefined : "must be blank outside US, CA and AU";
    },
  ],
  zip: [
    (i) => {
      const z = i.customer.zip;
      if (z === "") return ZIP_COUNTRIES.has(i.customer.country) ? `is required for ${i.customer.country}` : undefined;
      return /^[A-Za-z0-9]{1,12}$/.test(z) ? undefined : "must be at most 12 letters or digits";
    },
  ],
  frontend: [
    (i) => required(i.frontend) ?? maxLen(i.frontend, 256),
    (i, ctx) => (i.frontend.trim() !== "" && !ctx.frontend ? "is not a frontend of this merchant" : undefined),
  ],
  returnUrl: [(i) => required(i.returnUrl) ?? maxLen(i.returnUrl, 256) ?? httpUrl(i.returnUrl), noCard((i) => i.returnUrl, cardNumberInUrl)],
  notificationUrl: [
    (i) => (i.notificationUrl === "" ? undefined : (maxLen(i.notificationUrl, 256) ?? httpUrl(i.notificationUrl))),
    noCard((i) => i.notificationUrl, cardNumberInUrl),
  ],
  referenceId: [(i) => (i.type === "refund" ? required(i.referenceId) : undefined) ?? maxLen(i.referenceId, 50), noCard((i) => i.referenceId)],
  errorDetails: [text((i) => i.errorDetails, 256, false)],
  errorCode: [
    (i) => (Number.isSafeInteger(i.errorCode) && i.errorCode >= 0 && i.errorCode < 1e10 ? undefined : "must be a non-negative integer of at most 10 digits"),
  ],
  version: [(i) => (i.version === API_VERSION ? undefined : `must be "${API_VERSION}"`)],
};

/** Every text member of a request by its domain name, for the control-character rule. */
function textFields(i: ProcessInput): [ProcessField, string][] {
  const c = i.customer;
  return [
    ["merchantId", i.merchantId],
    ["orderId", i.orderId],
    ["currency", i.currency],
    ["cardNumber", i.card.number],
    ["cvv", i.card.cvv],
    ["cardExp", i.card.expiry],
    ["pin", c.pin],
    ["dob", c.dob],
    ["email", c.email],
    ["phone", c.phone],
    ["requesterIp", c.requesterIp],
    ["address", c.address],
    ["city", c.city],
    ["country", c.country],
    ["firstName", c.firstName],
    ["lastName", c.lastName],
    ["state", c.state],
    ["zip", c.zip],
    ["frontend", i.frontend],
    ["returnUrl", i.returnUrl],
    ["notificationUrl", i.notificationUrl],
    ["referenceId", i.referenceId],
    ["errorDetails", i.errorDetails],
    ["version", i.version],
    ["cardToken", i.cardToken ?? ""],
  ];
}

/**
 * Control characters (NUL, newlines, ...) in any text member. Checked before
 * anything is looked up: a merchant_id holding one is refused at once; the
 * other fields are named beside the rest of the request's faults.
 */
export function controlCharacterViolations(input: ProcessInput): FieldViolation[] {
  return textFields(input)
    .filter(([, v]) => CONTROL_CHARACTERS.test(v))
    .map(([field]) => ({ field, description: "must not contain control characters" }));
}

/** Every violation of the request, in the table's field order. */
export function validateProcess(input: ProcessInput, ctx: ValidationContext): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const field of VALIDATED_FIELDS) {
    for (const check of RULES[field] ?? []) {
      const problem = check(input, ctx);
      if (problem) {
        out.push({ field, description: problem });
        break;
      }
    }
  }
  return out;
}

/** The fields the rules cover, in the table's order (the order violations are reported in). */
export const VALIDATED_FIELDS = Object.keys(RULES) as ProcessField[];
