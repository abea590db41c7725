/**
 * The accounts the simulator holds at its Checkout.com and Adyen stand-ins:
 * each is found by the API key a request carries (compared in constant time)
 * and says where its webhooks go and how they are signed. They come from
 * ACQUIRER_SIM_ACCOUNTS (settings.ts) and, in test mode, from
 * POST /admin/accounts, so that a test can point an account's webhooks at an
 * edge it started after the simulator. The ledger names an account by a hash
 * of its key (its scope), never by the key.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** A Checkout.com account: the names are the merchants file's credentials of a `checkout` account. */
export interface CheckoutAccount {
  secret_key: string;
  /** Signs the webhooks (Cko-Signature); without it, or without webhook_url, none are sent. */
  webhook_secret?: string;
  webhook_url?: string;
}

/** An Adyen account: the merchants file's credentials and `merchant_account` setting of an `adyen` account. */
export interface AdyenAccount {
  api_key: string;
  merchant_account: string;
  /** Hex; signs each notification item (additionalData.hmacSignature). */
  hmac_key?: string;
  webhook_url?: string;
}

export interface SimAccounts {
  checkout: CheckoutAccount[];
  adyen: AdyenAccount[];
}

/** The first fault of an account, by field, or undefined. */
function accountFault(acquirer: "checkout" | "adyen", a: Record<string, unknown>): string | undefined {
  const key = acquirer === "checkout" ? "secret_key" : "api_key";
  if (typeof a[key] !== "string" || (a[key] as string).length < 8) return `${key} (a string of 8 characters or more)`;
  if (a.webhook_url !== undefined && (typeof a.webhook_url !== "string" || !/^https?:\/\/[^\s]+$/.test(a.webhook_url)))
    return "webhook_url (an http or https URL)";
  if (acquirer === "checkout" && a.webhook_secret !== undefined && (typeof a.webhook_secret !== "string" || a.webhook_secret === "")) return "webhook_secret";
  if (acquirer === "adyen") {
    if (typeof a.merchant_account !== "string" || a.merchant_account === "") return "merchant_account";
    if (a.hmac_key !== undefined && (typeof a.hmac_key !== "string" || !/^([0-9a-fA-F]{2})+$/.test(a.hmac_key))) return "hmac_key (hex)";
  }
  return undefined;
}

/** One account as the admin endpoint or the setting gives it, or the name of its bad field. */
export function parseAccount(acquirer: "checkout" | "adyen", raw: unknown): CheckoutAccount | AdyenAccount | { field: string } {
  const a = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const fault = accountFault(acquirer, a);
  if (fault) return { field: fault };
  return acquirer === "checkout"
    ? { secret_key: a.secret_key as string, webhook_secret: a.webhook_secret as string | undefined, webhook_url: a.webhook_url as string | undefined }
    : {
        api_key: a.api_key as string,
        merchant_account: a.merchant_account as string,
        hmac_key: a.hmac_key as string | undefined,
        webhook_url: a.webhook_url as string | undefined,
      };
}

/** ACQUIRER_SIM_ACCOUNTS: `{"checkout": [...], "adyen": [...]}`; a bad one stops the start, naming it. */
export function parseAccounts(name: string, raw: string): SimAccounts {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be JSON: {"checkout": [{"secret_key": ...}], "adyen": [{"api_key": ..., "merchant_account": ...}]}`);
  }
  const out: SimAccounts = { checkout: [], adyen: [] };
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error(`${name} must be a JSON object with "checkout" and/or "adyen" lists`);
  for (const [acquirer, list] of Object.entries(json)) {
    if (acquirer !== "checkout" && acquirer !== "adyen") throw new Error(`${name} names an unknown acquirer ${JSON.stringify(acquirer)} (checkout or adyen)`);
    if (!Array.isArray(list)) throw new Error(`${name}.${acquirer} must be a list of accounts`);
    list.forEach((item, i) => {
      const a = parseAccount(acquirer, item);
      if ("field" in a) throw new Error(`${name}.${acquirer}[${i}] has an invalid ${a.field}`);
      (out[acquirer] as unknown[]).push(a);
    });
  }
  return out;
}

/** The ledger's name for an account: a hash of its key, stable across restarts, revealing nothing. */
export function scopeOf(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** One acquirer's accounts by key: found in constant time per key, replaced by key. */
export class AccountBook<A> {
  readonly #keyOf: (a: A) => string;
  #accounts: A[];

  constructor(accounts: A[], keyOf: (a: A) => string) {
    this.#keyOf = keyOf;
    this.#accounts = [...accounts];
  }

  /** The account this key opens, with its scope; undefined for an unknown key. */
  find(given: string | undefined): { account: A; scope: string } | undefined {
    if (!given) return undefined;
    const g = Buffer.from(given);
    let found: A | undefined;
    for (const a of this.#accounts) {
      const k = Buffer.from(this.#keyOf(a));
      if (k.length === g.length && timingSafeEqual(k, g)) found = a;
    }
    return found && { account: found, scope: scopeOf(given) };
  }

  /** The account a scope names (webhooks of a change no request carried a key for: a 3-D Secure result). */
  byScope(scope: string): A | undefined {
    return this.#accounts.find((a) => scopeOf(this.#keyOf(a)) === scope);
  }

  /** Adds an account, or replaces the one with its key. */
  put(account: A): void {
    const key = this.#keyOf(account);
    this.#accounts = [...this.#accounts.filter((a) => this.#keyOf(a) !== key), account];
  }
}
