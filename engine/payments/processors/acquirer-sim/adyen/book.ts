/**
 * What the Adyen stand-in remembers of its payments and refunds, rebuilt
 * from the ledger's "adyen.*" entries at start and kept up to date as entries
 * reach the disk. A payment is found by its pspReference, by its challenge
 * page's id, or by the redirectResult the shopper came back with.
 */
import type { Entry } from "../ledger.ts";
import type { AdyenRefusal } from "./cards.ts";

export interface AdyenRefund {
  psp: string;
  value: number;
  reference?: string;
  at: number;
  /** refunded; refused (REFUND success false, with `reason`); failed (REFUND, then REFUND_FAILED). */
  outcome: "refunded" | "refused" | "failed";
  reason?: string;
}

/** A card payment as decided; no card number, no CVC. */
export interface AdyenPayment {
  scope: string;
  psp: string;
  merchantAccount: string;
  reference: string;
  value: number;
  currency: string;
  /** Adyen's brand variant: visa, mc, amex... */
  brand: string;
  last4: string;
  /** "03/2030", as Adyen's authorisation reason shows it. */
  expiry: string;
  returnUrl: string;
  at: number;
  /** Where it stands: RedirectShopper while the challenge is open. */
  result: AdyenRefusal | { resultCode: "RedirectShopper" };
  authCode?: string;
  /** 3-D Secure: the challenge page's id, the shopper's answer, the redirectResult it returned with, and the result a pass gives. */
  redirect?: { page: string; answer?: "passed" | "failed"; redirectResult?: string; after: AdyenRefusal };
  /** Its refunds fail later (holder name "refund failed"). */
  refundsFail: boolean;
  refunds: AdyenRefund[];
}

export type AdyenEntry =
  | { t: "adyen.payment"; p: AdyenPayment }
  | { t: "adyen.update"; scope: string; psp: string; set: Partial<AdyenPayment> }
  | { t: "adyen.refund"; scope: string; psp: string; refund: AdyenRefund };

/** What is left to refund: refunds that failed later gave their amount back. */
export const refundable = (p: AdyenPayment): number => p.value - p.refunds.filter((r) => r.outcome === "refunded").reduce((n, r) => n + r.value, 0);

export class AdyenBook {
  readonly #byPsp = new Map<string, AdyenPayment>();
  readonly #byPage = new Map<string, AdyenPayment>();
  readonly #byRedirectResult = new Map<string, AdyenPayment>();

  apply(entry: Entry): void {
    const e = entry as AdyenEntry;
    if (e.t === "adyen.payment") {
      const k = `${e.p.scope}/${e.p.psp}`;
      if (this.#byPsp.has(k)) return;
      this.#byPsp.set(k, e.p);
      if (e.p.redirect) this.#byPage.set(e.p.redirect.page, e.p);
    } else if (e.t === "adyen.update") {
      const p = this.#byPsp.get(`${e.scope}/${e.psp}`);
      if (!p) return;
      Object.assign(p, e.set);
      if (p.redirect?.redirectResult) this.#byRedirectResult.set(`${p.scope}/${p.redirect.redirectResult}`, p);
    } else if (e.t === "adyen.refund") {
      const p = this.#byPsp.get(`${e.scope}/${e.psp}`);
      if (p && !p.refunds.some((r) => r.psp === e.refund.psp)) p.refunds.push(e.refund);
    }
  }

  find(scope: string, psp: string): AdyenPayment | undefined {
    return this.#byPsp.get(`${scope}/${psp}`);
  }

  /** The payment of a challenge page, whatever the account (the shopper's browser carries no key). */
  byPage(page: string): AdyenPayment | undefined {
    return this.#byPage.get(page);
  }

  byRedirectResult(scope: string, redirectResult: string): AdyenPayment | undefined {
    return this.#byRedirectResult.get(`${scope}/${redirectResult}`);
  }
}
