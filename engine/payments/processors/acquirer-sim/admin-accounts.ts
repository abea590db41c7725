/**
 * POST /admin/accounts (test mode only): adds or replaces a Checkout.com or
 * Adyen account at run time, `{"acquirer": "checkout", "secret_key": ...,
 * "webhook_secret": ..., "webhook_url": ...}` or `{"acquirer": "adyen",
 * "api_key": ..., "merchant_account": ..., "hmac_key": ..., "webhook_url":
 * ...}`, so that a test can point the webhooks at an edge it started after
 * the simulator. Accounts added so are not kept across a restart.
 */
import type { IncomingMessage } from "node:http";
import { type AccountBook, type AdyenAccount, type CheckoutAccount, parseAccount } from "./accounts.ts";
import { type Answer, parseJson, readRaw } from "./http.ts";

export function adminAccounts(books: { checkout: AccountBook<CheckoutAccount>; adyen: AccountBook<AdyenAccount> }) {
  return async (req: IncomingMessage, url: URL): Promise<Answer> => {
    if (url.pathname !== "/admin/accounts") return { http: 404, body: { error: "not_found", message: "no such route" } };
    if (req.method !== "POST") return { http: 405, body: { error: "method_not_allowed", message: "POST" } };
    const body = parseJson(await readRaw(req, 16 * 1024)) as Record<string, unknown> | null;
    const acquirer = body?.acquirer;
    if (acquirer !== "checkout" && acquirer !== "adyen")
      return { http: 400, body: { error: "invalid_request", message: "invalid field acquirer (checkout or adyen)" } };
    const account = parseAccount(acquirer, body);
    if ("field" in account) return { http: 400, body: { error: "invalid_request", message: `invalid field ${account.field}` } };
    if (acquirer === "checkout") books.checkout.put(account as CheckoutAccount);
    else books.adyen.put(account as AdyenAccount);
    return { http: 201, body: { added: acquirer } };
  };
}
