/**
 * Cashier's calls -> the bodies of Checkout.com's Unified Payments API, pure.
 * A sale is `POST /payments` with a card source; a card payout is the same
 * endpoint with a currency-account source and a card destination; a refund is
 * `POST /payments/{id}/refunds`. Our trace_id is every payment's `reference`,
 * which is how a lost answer is found again (`GET /payments?reference=`).
 * Optional customer data that breaks one of Checkout's documented limits is
 * left out rather than sent to be refused; what a call cannot go without (an
 * expiry, a recipient's name) refuses the call before anything is sent.
 * Every body is checked against Checkout's published schemas in the tests.
 */
import type { ChargeRequest, PaymentParty, RefundRequest } from "../processor.ts";
import type { CheckoutSettings, PayoutSettings } from "./settings.ts";

export type Body = Record<string, unknown>;

/** A body, or why the call cannot be made (nothing is sent: the attempt is `unavailable`). */
export type Built = { ok: true; body: Body } | { ok: false; why: string };

/** "MM/YYYY" (the Process API's card_exp), or "MM/YY" -> Checkout's integer month and four-digit year. */
export function expiryOf(expiry: string): { month: number; year: number } | undefined {
  const m = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!m) return undefined;
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : undefined;
}

/** A value within Checkout's documented length, or nothing. */
const fit = (v: string | undefined, max: number): string | undefined => {
  const t = v?.trim();
  return t && t.length <= max ? t : undefined;
};

/** Only the members that have a value. */
function present(o: Record<string, unknown>): Body | undefined {
  const kept = Object.entries(o).filter(([, v]) => v !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function address(c: PaymentParty | undefined): Body | undefined {
  if (!c) return undefined;
  return present({
    address_line1: fit(c.address, 200),
    city: fit(c.city, 50),
    state: fit(c.state, 50),
    zip: fit(c.zip, 50),
    country: /^[A-Z]{2}$/.test(c.country) ? c.country : undefined,
  });
}

const phone = (c: PaymentParty | undefined): Body | undefined => {
  const n = c?.phone.trim();
  return n && n.length >= 6 && n.length <= 25 ? { number: n } : undefined;
};

const fullName = (c: PaymentParty | undefined) => fit([c?.firstName, c?.lastName].filter(Boolean).join(" "), 255);

/** The spec's payment_ip is an IPv4 address. */
const ipv4 = (ip: string | undefined) => (ip && /^(\d{1,3})(\.\d{1,3}){3}$/.test(ip) ? ip : undefined);

const BAD_EXPIRY = "the card's expiry is not MM/YYYY";

/**
 * `POST /payments` for a card sale, 3-D Secure on when there is a return URL for the customer to come back to. A MOTO
 * sale (the Virtual Terminal) is `payment_type: "MOTO"`, out of scope of strong customer authentication: no `3ds`, no
 * success or failure URL.
 */
export function saleBody(req: ChargeRequest, s: CheckoutSettings): Built {
  const exp = expiryOf(req.card.expiry);
  if (!exp) return { ok: false, why: BAD_EXPIRY };
  const c = req.customer;
  const source = present({
    type: "card",
    number: req.card.number,
    expiry_month: exp.month,
    expiry_year: exp.year,
    cvv: req.card.cvv || undefined,
    name: fullName(c),
    billing_address: address(c),
    phone: phone(c),
  });
  const body: Body = {
    source,
    amount: req.amountMinor,
    currency: req.currency,
    payment_type: req.moto ? "MOTO" : "Regular",
    reference: String(req.traceId),
    capture: true,
    processing_channel_id: s.processingChannelId,
  };
  const customer = present({ email: fit(c?.email, 255), name: fullName(c) });
  if (customer) body.customer = customer;
  const ip = ipv4(c?.ip);
  if (ip) body.payment_ip = ip;
  if (req.orderId) body.metadata = { order_id: req.orderId };
  if (req.returnUrl && !req.moto) {
    if (req.returnUrl.length > 255) return { ok: false, why: "the return URL is longer than Checkout.com's 255 characters" };
    body["3ds"] = { enabled: true };
    body.success_url = req.returnUrl;
    body.failure_url = req.returnUrl;
  }
  return { ok: true, body };
}

function sender(p: PayoutSettings): Body | undefined {
  const s = p.sender;
  if (!s) return undefined;
  const where = present({
    address_line1: s.addressLine1,
    address_line2: s.addressLine2,
    city: s.city,
    state: s.state,
    zip: s.zip,
    country: s.country,
  });
  return { type: "corporate", reference: s.reference, company_name: s.companyName, address: where };
}

/**
 * `POST /payments` for a card payout: the account's currency account pays the
 * card, whose holder (the customer) Checkout.com and the schemes require by
 * name. The account's payout settings add the sender and the instruction.
 */
export function payoutBody(req: ChargeRequest, s: CheckoutSettings): Built {
  const p = s.payout;
  if (!p) return { ok: false, why: "this Checkout.com account has no payout_currency_account_id" };
  const exp = expiryOf(req.card.expiry);
  if (!exp) return { ok: false, why: BAD_EXPIRY };
  const c = req.customer;
  const first = fit(c?.firstName, 50);
  const last = fit(c?.lastName, 50);
  if (!first || !last) return { ok: false, why: "a card payout needs the recipient's first and last name" };
  const holder = present({
    type: "individual",
    first_name: first,
    last_name: last,
    billing_address: address(c),
    email: fit(c?.email, 255),
    phone: phone(c),
    date_of_birth: c?.dob && /^\d{4}-\d{2}-\d{2}$/.test(c.dob) ? c.dob : undefined,
  });
  const body: Body = {
    source: { type: "currency_account", id: p.currencyAccountId },
    destination: { type: "card", number: req.card.number, expiry_month: exp.month, expiry_year: exp.year, account_holder: holder },
    amount: req.amountMinor,
    currency: req.currency,
    reference: String(req.traceId),
    processing_channel_id: s.processingChannelId,
  };
  if (p.billingDescriptor) body.billing_descriptor = { reference: p.billingDescriptor };
  const from = sender(p);
  if (from) body.sender = from;
  const instruction = present({ purpose: p.purpose, funds_transfer_type: p.fundsTransferType });
  if (instruction) body.instruction = instruction;
  if (req.orderId) body.metadata = { order_id: req.orderId };
  return { ok: true, body };
}

/** `POST /payments/{id}/refunds`: the amount always given (a full refund names the whole amount), our trace_id as its reference. */
export function refundBody(req: RefundRequest): Built {
  if (!req.saleTransactionId) return { ok: false, why: "the sale has no Checkout.com payment id to refund" };
  return { ok: true, body: { amount: req.amountMinor, reference: String(req.traceId) } };
}
