/**
 * An Adyen account's `settings`, checked by the connector's own schema: what
 * the Checkout API needs per account beyond the URL and the credentials. A
 * wrong or missing setting is a fault named as the merchants file names it
 * (`settings.merchant_account`), so that the start stops (or the API refuses)
 * on that name; a member the connector does not know is a fault too, so a
 * typo (`merchantAccount`) is not silently ignored.
 */
import type { Checked, FieldFault } from "../connector.ts";

export interface AdyenSettings {
  /** Adyen's merchant account code: `merchantAccount` of every payment and refund. */
  merchantAccount: string;
  /**
   * What makes this installation's idempotency keys its own. Adyen keeps keys
   * per company account, for 31 days or more; two Cashier installations on one
   * company account (staging and production on the test platform, two regions)
   * number their attempts alike, so without a scope the second would be
   * answered the first one's payment. Defaults to the merchant account.
   */
  idempotencyScope: string;
}

/** Letters, digits and the punctuation Adyen's account codes use; no spaces or control characters. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.@-]*$/;

const KNOWN = new Set(["merchant_account", "idempotency_scope"]);

function text(raw: Record<string, unknown>, key: string, required: boolean, max: number, faults: FieldFault[]): string | undefined {
  const field = `settings.${key}`;
  const v = raw[key];
  if (v === undefined || v === "") {
    if (required) faults.push({ field, description: "is required" });
    return undefined;
  }
  if (typeof v !== "string") {
    faults.push({ field, description: "must be a string" });
    return undefined;
  }
  if (v.length > max) faults.push({ field, description: `must be at most ${max} characters` });
  else if (!CODE.test(v)) faults.push({ field, description: "must be letters, digits, '_', '.', '@' or '-', without spaces" });
  else return v;
  return undefined;
}

/** The account's settings, or every fault found in them. */
export function parseAdyenSettings(raw: unknown): Checked<AdyenSettings> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, faults: [{ field: "settings", description: "must be an object with merchant_account" }] };
  }
  const r = raw as Record<string, unknown>;
  const faults: FieldFault[] = [];
  for (const key of Object.keys(r)) {
    if (!KNOWN.has(key)) faults.push({ field: `settings.${key}`, description: "is not a setting of the adyen connector" });
  }
  const merchantAccount = text(r, "merchant_account", true, 80, faults);
  const scope = text(r, "idempotency_scope", false, 64, faults);
  if (faults.length > 0 || merchantAccount === undefined) return { ok: false, faults };
  return { ok: true, value: { merchantAccount, idempotencyScope: scope ?? merchantAccount } };
}
