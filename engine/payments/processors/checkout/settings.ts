/**
 * A Checkout.com account's settings, as the merchants file and the API give
 * them, checked here so that a wrong value stops the start (or is refused)
 * naming its field, instead of coming back as a 422 on a customer's payment.
 * Sales need the processing channel only. Card payouts debit a currency
 * account and may carry what Checkout.com asks of gambling and money-transfer
 * payouts: the funds transfer type (Visa's business application identifier or
 * Mastercard's payment type, as Checkout assigned it to the account), the
 * purpose, the statement descriptor, and the sender when the payer of record
 * is not the account's own entity (a corporate sender: this merchant).
 */
// The code tables alone, as validate-process.ts imports them: the Node entry also loads names isValid never reads.
import countries from "i18n-iso-countries/index.js";
import type { Checked, FieldFault } from "../connector.ts";

/** The payer of record of a payout (Checkout.com's `sender` of type `corporate`). */
export interface PayoutSender {
  companyName: string;
  /** The merchant's reference for itself as the sender (Checkout.com's `sender.reference`). */
  reference: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  state?: string;
  zip: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** What card payouts of this account need; absent: the account does not pay out. */
export interface PayoutSettings {
  currencyAccountId: string;
  fundsTransferType?: string;
  purpose?: string;
  billingDescriptor?: string;
  sender?: PayoutSender;
}

export interface CheckoutSettings {
  processingChannelId: string;
  payout?: PayoutSettings;
}

/** Checkout.com's identifiers: a prefix and 26 characters (its API reference's `^(pc)_(\w{26})$`). */
const id = (prefix: string) => new RegExp(`^${prefix}_\\w{26}$`);

type Rule = [test: (v: string) => boolean, description: string];
const text = (max: number): Rule => [(v) => v.trim().length > 0 && v.length <= max, `must be 1 to ${max} characters`];

const TOP: Record<string, Rule> = {
  processing_channel_id: [(v) => id("pc").test(v), "must be a processing channel id: pc_ and 26 letters or digits"],
  payout_currency_account_id: [(v) => id("ca").test(v), "must be a currency account id: ca_ and 26 letters or digits"],
  payout_funds_transfer_type: [(v) => /^[A-Z0-9]{2,3}$/.test(v), "must be the funds transfer type code Checkout.com assigned (AA, PP, FD, OG, C07, ...)"],
  payout_purpose: text(100),
  payout_billing_descriptor: text(50),
};

const SENDER: Record<string, Rule & { optional?: boolean }> = {
  company_name: text(200),
  reference: text(50),
  address_line1: text(200),
  address_line2: Object.assign(text(200), { optional: true }),
  city: text(50),
  state: Object.assign(text(50), { optional: true }),
  zip: text(50),
  country: [(v) => /^[A-Z]{2}$/.test(v) && countries.isValid(v), "must be an ISO 3166-1 alpha-2 country code (GB)"],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The strings of `raw` that pass their rules, with a fault for every one that does not. */
function strings(raw: Record<string, unknown>, rules: Record<string, Rule & { optional?: boolean }>, at: string, faults: FieldFault[]) {
  const out: Record<string, string> = {};
  for (const [key, [test, description]] of Object.entries(rules)) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== "string" || !test(v)) faults.push({ field: `${at}.${key}`, description });
    else out[key] = v;
  }
  return out;
}

function unknownKeys(raw: Record<string, unknown>, known: string[], at: string, faults: FieldFault[]) {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) faults.push({ field: `${at}.${key}`, description: "is not a Checkout.com setting" });
  }
}

function parseSender(raw: unknown, faults: FieldFault[]): PayoutSender | undefined {
  const at = "settings.payout_sender";
  if (!isObject(raw)) {
    faults.push({ field: at, description: "must be an object: company_name, reference and the address" });
    return undefined;
  }
  unknownKeys(raw, Object.keys(SENDER), at, faults);
  const s = strings(raw, SENDER, at, faults);
  for (const [key, rule] of Object.entries(SENDER)) {
    if (!rule.optional && raw[key] === undefined) faults.push({ field: `${at}.${key}`, description: "is required" });
  }
  if (!s.company_name || !s.reference || !s.address_line1 || !s.city || !s.zip || !s.country) return undefined;
  return {
    companyName: s.company_name,
    reference: s.reference,
    addressLine1: s.address_line1,
    ...(s.address_line2 ? { addressLine2: s.address_line2 } : {}),
    city: s.city,
    ...(s.state ? { state: s.state } : {}),
    zip: s.zip,
    country: s.country,
  };
}

/** An account's `settings`, or every fault in them, each named `settings.<field>`. */
export function parseCheckoutSettings(raw: unknown): Checked<CheckoutSettings> {
  if (!isObject(raw)) return { ok: false, faults: [{ field: "settings", description: "must be an object with processing_channel_id" }] };
  const faults: FieldFault[] = [];
  unknownKeys(raw, [...Object.keys(TOP), "payout_sender"], "settings", faults);
  const s = strings(raw, TOP, "settings", faults);
  if (raw.processing_channel_id === undefined) faults.push({ field: "settings.processing_channel_id", description: "is required" });
  const sender = raw.payout_sender === undefined ? undefined : parseSender(raw.payout_sender, faults);
  const payoutGiven = Object.keys(raw).some((k) => k.startsWith("payout_") && k !== "payout_currency_account_id");
  if (payoutGiven && raw.payout_currency_account_id === undefined) {
    faults.push({ field: "settings.payout_currency_account_id", description: "is required with the other payout settings: payouts debit it" });
  }
  if (faults.length > 0) return { ok: false, faults };
  const payout: PayoutSettings | undefined = s.payout_currency_account_id
    ? {
        currencyAccountId: s.payout_currency_account_id,
        ...(s.payout_funds_transfer_type ? { fundsTransferType: s.payout_funds_transfer_type } : {}),
        ...(s.payout_purpose ? { purpose: s.payout_purpose } : {}),
        ...(s.payout_billing_descriptor ? { billingDescriptor: s.payout_billing_descriptor } : {}),
        ...(sender ? { sender } : {}),
      }
    : undefined;
  return { ok: true, value: { processingChannelId: s.processing_channel_id, ...(payout ? { payout } : {}) } };
}
