/**
 * Cashier's processor calls -> the bodies of Adyen Checkout API v71 requests,
 * pure: `POST /payments` (a card sale, 3-D Secure by redirect),
 * `POST /payments/details` (the shopper is back from Adyen's page) and
 * `POST /payments/{pspReference}/refunds`, with the idempotency key of each.
 * Every body these build is validated against Adyen's published schema
 * (test/contracts/adyen/, test/unit/engine/payments/processors/adyen/).
 */
import { createHash } from "node:crypto";
import type { ChargeRequest, RefundRequest } from "../processor.ts";
import type { AdyenSettings } from "./settings.ts";

/**
 * What the shopper's browser says of itself, for 3-D Secure 2 (Adyen's
 * `browserInfo`): the request headers (user agent, Accept) and what only the
 * browser's script can read (language, screen, colour depth, time zone, Java).
 * v71 requires all eight when the object is sent. No channel of Cashier
 * collects the script's five yet (docs/processors.md, "What Cashier sends
 * Adyen for 3-D Secure"), so it is sent only when a caller gives all of them.
 */
export interface AdyenBrowserInfo {
  userAgent: string;
  acceptHeader: string;
  language: string;
  colorDepth: number;
  screenHeight: number;
  screenWidth: number;
  timeZoneOffset: number;
  javaEnabled: boolean;
}

export type SaleRequest = ChargeRequest & { browser?: AdyenBrowserInfo };

export type Operation = "payment" | "details" | "refund";

const hash = (s: string): string => createHash("sha256").update(s).digest("hex");

/**
 * The Idempotency-Key of a write: the operation and what it is about (our
 * trace_id; Adyen's pspReference for a details call, which has no trace_id),
 * tagged with the account's scope, since Adyen keeps keys per company account.
 * Replaying a lost call with the same key returns Adyen's first answer
 * instead of charging twice. At most 64 characters, as Adyen allows.
 */
export function idempotencyKey(s: AdyenSettings, operation: Operation, subject: string): string {
  const key = `cashier-${operation}-${subject}-${hash(s.idempotencyScope).slice(0, 12)}`;
  return key.length <= 64 ? key : `cashier-${operation}-${hash(`${subject}|${s.idempotencyScope}`).slice(0, 40)}`;
}

/**
 * The key of a details call: the payment's pspReference and the redirect
 * result it submits (a shopper who comes back twice sends the same result, and
 * is answered once).
 */
export function detailsIdempotencyKey(s: AdyenSettings, pspReference: string, redirectResult: string): string {
  return idempotencyKey(s, "details", `${pspReference || "none"}-${hash(redirectResult).slice(0, 8)}`);
}

const amount = (req: ChargeRequest) => ({ value: req.amountMinor, currency: req.currency });

/** The colour depths Adyen accepts (BrowserInfo.colorDepth). */
const COLOR_DEPTHS: ReadonlySet<number> = new Set([1, 4, 8, 15, 16, 24, 30, 32, 48]);
const whole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

/**
 * The browser's information as Adyen takes it, or nothing: a partial or out-of-range object is not sent, since v71
 * refuses it and values made up for the missing members would mislead the issuer's risk checks (EMVCo's limits:
 * the screen up to 6 digits, the time zone offset -840 to 720 minutes).
 */
export function browserInfoOf(b: AdyenBrowserInfo | undefined): AdyenBrowserInfo | undefined {
  if (!b) return undefined;
  const ok =
    b.userAgent.trim() !== "" &&
    b.userAgent.length <= 2048 &&
    b.acceptHeader.trim() !== "" &&
    b.acceptHeader.length <= 2048 &&
    /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(b.language) &&
    b.language.length <= 35 &&
    COLOR_DEPTHS.has(b.colorDepth) &&
    whole(b.screenHeight, 1, 999_999) &&
    whole(b.screenWidth, 1, 999_999) &&
    whole(b.timeZoneOffset, -840, 720) &&
    typeof b.javaEnabled === "boolean";
  return ok ? { ...b } : undefined;
}

/**
 * The origin of the page the shopper leaves for 3-D Secure: Cashier's own (its return URL's), at most Adyen's 80
 * characters. Adyen asks it of browser-based 3-D Secure 2 payments (`origin`, channel Web).
 */
export function originOf(returnUrl: string | undefined): string | undefined {
  if (!returnUrl) return undefined;
  try {
    const u = new URL(returnUrl);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin.length <= 80 ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** "03/2030" -> ["03", "2030"] (the engine checks MM/YYYY before any call). */
function expiry(value: string): [month: string, year: string] {
  const [month = "", year = ""] = value.split("/");
  return [month, year];
}

/** The members of the shopper Adyen's risk checks and 3-D Secure read, each only when given. */
function shopper(req: SaleRequest): Record<string, unknown> {
  const c = req.customer;
  const out: Record<string, unknown> = {};
  if (!c) return out;
  if (c.email) out.shopperEmail = c.email;
  if (c.ip) out.shopperIP = c.ip;
  if (c.phone) out.telephoneNumber = c.phone;
  if (c.country) out.countryCode = c.country;
  if (c.firstName && c.lastName) out.shopperName = { firstName: c.firstName.slice(0, 80), lastName: c.lastName.slice(0, 80) };
  // Adyen's billing address needs all five members; Cashier holds the street and number as one line.
  if (c.address && c.city && c.zip && c.country) {
    const address: Record<string, string> = { street: c.address, houseNumberOrName: "", city: c.city, postalCode: c.zip, country: c.country };
    if (c.state) address.stateOrProvince = c.state;
    out.billingAddress = address;
  }
  return out;
}

/**
 * The body of `POST /payments` for a card sale. Raw card numbers need Adyen's
 * approval of the account (PCI DSS); 3-D Secure goes by redirect
 * (`nativeThreeDS: "disabled"`): Adyen's own page, then `returned()`. What
 * Adyen reads for 3-D Secure 2: `channel: "Web"`, `returnUrl` and `origin`
 * (Cashier's), `shopperIP`, `shopperEmail`, `billingAddress` and the holder's
 * name when the customer gave them, `browserInfo` when complete.
 * `captureDelayHours: 0` captures at once, whatever the account's default,
 * because a Cashier sale is a captured payment (and Adyen refunds only captured ones).
 * A MOTO sale (the Virtual Terminal) is `shopperInteraction: "Moto"` with no `recurringProcessingModel` (a single
 * keyed-in payment, not a stored card's): no channel, origin, browser data or 3-D Secure request; the returnUrl that
 * Adyen's schema requires on every payment is still sent, and never used.
 */
export function paymentBody(req: SaleRequest, s: AdyenSettings): Record<string, unknown> {
  const [expiryMonth, expiryYear] = expiry(req.card.expiry);
  const card: Record<string, string> = { type: "scheme", number: req.card.number, expiryMonth, expiryYear };
  if (req.card.cvv) card.cvc = req.card.cvv;
  const holder = `${req.customer?.firstName ?? ""} ${req.customer?.lastName ?? ""}`.trim();
  if (holder) card.holderName = holder;
  if (req.moto) {
    const moto: Record<string, unknown> = {
      amount: amount(req),
      reference: String(req.traceId),
      merchantAccount: s.merchantAccount,
      paymentMethod: card,
      returnUrl: req.returnUrl ?? "",
      shopperInteraction: "Moto",
      captureDelayHours: 0,
      ...shopper(req),
    };
    if (req.orderId) moto.merchantOrderReference = req.orderId;
    return moto;
  }
  const body: Record<string, unknown> = {
    amount: amount(req),
    reference: String(req.traceId),
    merchantAccount: s.merchantAccount,
    paymentMethod: card,
    returnUrl: req.returnUrl ?? "",
    channel: "Web",
    shopperInteraction: "Ecommerce",
    captureDelayHours: 0,
    authenticationData: { threeDSRequestData: { nativeThreeDS: "disabled" } },
    ...shopper(req),
  };
  if (req.orderId) body.merchantOrderReference = req.orderId;
  const origin = originOf(req.returnUrl);
  if (origin) body.origin = origin;
  const browserInfo = browserInfoOf(req.browser);
  if (browserInfo) body.browserInfo = browserInfo;
  return body;
}

/** The body of `POST /payments/details` with what Adyen put on the return URL. */
export function detailsBody(redirectResult: string): Record<string, unknown> {
  return { details: { redirectResult } };
}

/** The body of `POST /payments/{pspReference}/refunds`; the outcome comes later, by webhook. */
export function refundBody(req: RefundRequest, s: AdyenSettings): Record<string, unknown> {
  return { amount: amount(req), merchantAccount: s.merchantAccount, reference: String(req.traceId) };
}
