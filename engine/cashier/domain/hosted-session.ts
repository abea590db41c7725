/**
 * The hosted Cashier's rules (CONTRACT section 9), pure: what a session start
 * must hold, and the frontend's limits in minor units. The customer, the
 * frontend, the currency and the URLs follow the Process rules (seed 2.1,
 * CONTRACT 3) through validate-process.ts itself, so the two cannot drift;
 * the session's own members are judged here.
 */
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { formatMajor, isCurrency, currencyExponent, wireRepresentable, WHOLE_UNIT_CURRENCIES, wireUnitProblem } from "../../shared/money.ts";
import type { FieldViolation } from "../../shared/errors.ts";
import type { FrontendSettings } from "../../payments/index.ts";
import type { CustomerInput, FrontendView, ProcessInput } from "../../shared/transaction.ts";
import { validateProcess } from "../../payments/index.ts";
import { CARD_NUMBER_IN_IDENTIFIER, cardNumberIn } from "../../shared/card-number-in-text.ts";

export type SessionIntent = "deposit" | "withdrawal" | "fields";

/**
 * What a hosted payment fields session (CONTRACT 12) is judged on: its card form needs no customer beyond the pin,
 * no return address and no amount, so only these of the shared rules apply; its other members are not read.
 */
const FIELDS_SESSION_FIELDS = new Set(["merchantId", "currency", "pin", "frontend", "version"]);

/** A session start as the engine receives it (typed, minor units). */
export interface SessionStartInput {
  merchantId: string;
  intent: SessionIntent | undefined;
  frontend: string;
  currency: string;
  /** The fixed amount; undefined: the customer chooses. */
  amountMinor: number | undefined;
  /** Withdrawal: the withdrawable balance; undefined: none given. */
  balanceMinor: number | undefined;
  customer: CustomerInput;
  locale: string;
  returnUrl: string;
  notificationUrl: string;
  orderId: string;
  scOrderId: string;
  udef1: string;
  udef2: string;
  timestamp: number | undefined;
  version: string;
}

/** A frontend with its hosted Cashier settings. */
export type CashierFrontendView = FrontendView & { settings: FrontendSettings };

/** The Process rules a session start shares, by the domain's field names. */
const SHARED_FIELDS = new Set([
  "merchantId",
  "currency",
  "pin",
  "dob",
  "email",
  "phone",
  "requesterIp",
  "address",
  "city",
  "country",
  "firstName",
  "lastName",
  "state",
  "zip",
  "frontend",
  "returnUrl",
  "notificationUrl",
  "version",
]);

const chars = (v: string) => [...v].length;

/** The start's text members by domain name, for the control-character rule. */
function textMembers(i: SessionStartInput): [string, string][] {
  const c = i.customer;
  return [
    ["merchantId", i.merchantId],
    ["frontend", i.frontend],
    ["currency", i.currency],
    ["pin", c.pin],
    ["email", c.email],
    ["firstName", c.firstName],
    ["lastName", c.lastName],
    ["dob", c.dob],
    ["phone", c.phone],
    ["address", c.address],
    ["city", c.city],
    ["country", c.country],
    ["state", c.state],
    ["zip", c.zip],
    ["requesterIp", c.requesterIp],
    ["locale", i.locale],
    ["returnUrl", i.returnUrl],
    ["notificationUrl", i.notificationUrl],
    ["orderId", i.orderId],
    ["scOrderId", i.scOrderId],
    ["udef1", i.udef1],
    ["udef2", i.udef2],
    ["version", i.version],
  ];
}

/** Control characters anywhere: refused before anything is looked up, as for Process. */
export function sessionControlCharacterViolations(i: SessionStartInput): FieldViolation[] {
  return textMembers(i)
    .filter(([, v]) => CONTROL_CHARACTERS.test(v))
    .map(([field]) => ({ field, description: "must not contain control characters" }));
}

/** A well-formed BCP 47 language tag (what Intl accepts), at most 10 characters. */
export function localeProblem(tag: string): string | undefined {
  if (tag === "") return undefined;
  if (chars(tag) > 10) return "must be at most 10 characters";
  try {
    Intl.getCanonicalLocales(tag);
    return undefined;
  } catch {
    return "must be a BCP 47 language tag (en, de-DE, ar)";
  }
}

/**
 * `a` (minor units) against `wire` (a limit in the wire's unit, as the
 * frontend's settings hold it): -1, 0 or 1, exactly, with integers only.
 */
export function compareToWire(minor: number, wire: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  const wireExponent = WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2;
  // minor / 10^exponent against wire / 10^wireExponent, cross-multiplied.
  const left = BigInt(minor) * 10n ** BigInt(wireExponent);
  const right = BigInt(wire) * 10n ** BigInt(exponent);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A limit of the wire's unit in minor units, rounded inward (a minimum up, a maximum down). */
export function wireLimitToMinor(wire: number, currency: string, round: "up" | "down"): number {
  const exponent = currencyExponent(currency) ?? 2;
  const shift = exponent - (WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2);
  if (shift >= 0) return Number(BigInt(wire) * 10n ** BigInt(shift));
  const d = 10n ** BigInt(-shift);
  const q = BigInt(wire) / d;
  return Number(round === "up" && BigInt(wire) % d !== 0n ? q + 1n : q);
}

/** The wire-unit limit written for people: "10.00 USD". */
function shown(wire: number, currency: string): string {
  return `${formatMajor(wireLimitToMinor(wire, currency, "up"), currency)} ${currency}`;
}

/** Whether `amountMinor` lies within the frontend's deposit or withdrawal limits for its currency; the problem if not. */
export function limitProblem(kind: SessionIntent, amountMinor: number, currency: string, settings: FrontendSettings): string | undefined {
  const l = settings.limits[currency];
  if (!l) return undefined;
  const [min, max] = kind === "deposit" ? [l.depositMin, l.depositMax] : [l.withdrawalMin, l.withdrawalMax];
  if (min !== undefined && compareToWire(amountMinor, min, currency) < 0) return `is below the frontend's ${kind} minimum (${shown(min, currency)})`;
  if (max !== undefined && compareToWire(amountMinor, max, currency) > 0) return `is above the frontend's ${kind} maximum (${shown(max, currency)})`;
  return undefined;
}

/** An amount in minor units: positive, and writable in the wire's unit. */
function amountProblem(minor: number, currency: string): string | undefined {
  if (!Number.isSafeInteger(minor) || minor <= 0) return "must be a positive integer in minor units";
  return wireRepresentable(minor, currency) ? undefined : wireUnitProblem(currency);
}

/** The Process rules applied to the members a session start shares with a Process request. */
function sharedViolations(i: SessionStartInput, frontend: FrontendView | undefined, now: Date): FieldViolation[] {
  const asProcess: ProcessInput = {
    merchantId: i.merchantId,
    orderId: "",
    type: "sale",
    amountMinor: 1,
    currency: i.currency,
    card: { number: "", cvv: "", expiry: "" },
    customer: i.customer,
    frontend: i.frontend,
    returnUrl: i.returnUrl,
    notificationUrl: i.notificationUrl,
    referenceId: "",
    timestamp: i.timestamp,
    version: i.version,
    errorCode: 0,
    errorDetails: "",
  };
  return validateProcess(asProcess, { frontend, now }).filter((v) => SHARED_FIELDS.has(v.field));
}

/**
 * Every violation of a session start at once (CONTRACT 9's table), by the
 * domain's field names: intent, then the Process rules it shares, then the
 * amount, balance, order_id, locale and the echoed members. A fields
 * session: its signed members of CONTRACT 12 only.
 */
export function validateSessionStart(i: SessionStartInput, ctx: { frontend: CashierFrontendView | undefined; now: Date }): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, description: string | undefined) => {
    if (description) out.push({ field, description });
  };
  add("intent", i.intent ? undefined : "must be deposit or withdrawal (or fields: the hosted payment fields)");
  if (i.intent === "fields") {
    out.push(...sharedViolations(i, ctx.frontend, ctx.now).filter((v) => FIELDS_SESSION_FIELDS.has(v.field)));
    add("locale", localeProblem(i.locale));
    return out;
  }
  out.push(...sharedViolations(i, ctx.frontend, ctx.now));
  const currencyOk = isCurrency(i.currency) && (!ctx.frontend || ctx.frontend.currencies.includes(i.currency));
  if (i.amountMinor !== undefined) {
    let problem = amountProblem(i.amountMinor, i.currency);
    if (!problem && currencyOk && ctx.frontend && i.intent) problem = limitProblem(i.intent, i.amountMinor, i.currency, ctx.frontend.settings);
    if (!problem && i.intent === "withdrawal" && i.balanceMinor !== undefined && i.amountMinor > i.balanceMinor) problem = "is above the balance";
    add("amount", problem);
  }
  if (i.balanceMinor !== undefined) {
    const b = i.balanceMinor;
    add(
      "balance",
      !Number.isSafeInteger(b) || b < 0
        ? "must be a non-negative integer in minor units"
        : wireRepresentable(b, i.currency)
          ? undefined
          : wireUnitProblem(i.currency),
    );
  }
  if (i.intent === "withdrawal")
    add(
      "orderId",
      i.orderId.trim() === ""
        ? "is required for a withdrawal"
        : chars(i.orderId) > 50
          ? "must be at most 50 characters"
          : cardNumberIn(i.orderId)
            ? CARD_NUMBER_IN_IDENTIFIER
            : undefined,
    );
  if (i.intent === "deposit" && i.orderId !== "") add("orderId", "is for withdrawals only: deposits made in the Cashier get order ids the service makes");
  add("locale", localeProblem(i.locale));
  for (const [field, v] of [
    ["scOrderId", i.scOrderId],
    ["udef1", i.udef1],
    ["udef2", i.udef2],
  ] as const) {
    // Echoed in RecordFailedDeposit as SCOrderID, Udef1, Udef2: refused, never masked, when holding a card number.
    add(field, chars(v) > 50 ? "must be at most 50 characters" : cardNumberIn(v) ? CARD_NUMBER_IN_IDENTIFIER : undefined);
  }
  return out;
}
