/**
 * The Adyen connector's HTTP calls to Checkout API v71: the account's base URL
 * (https://checkout-test.adyen.com/v71, a live prefix URL, or a local
 * stand-in), `X-API-Key`, an `Idempotency-Key` on every write, and one call's
 * time limit. What an answer means is decided in transformers.ts; a call that
 * fails on the network once it may have reached Adyen (timeout, reset) is
 * `unknown`, never declined; a payment or refund whose connection could not be
 * made (refused, no such host) is `unavailable` and `notSent`, so that a sale
 * goes on to the cascade's next account.
 * Adyen has no lookup by reference, so such an attempt is settled by its
 * notification, or by sending the same request again with the same key.
 */
import { agentFor, exchange, jsonOf } from "../http-exchange.ts";
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ConnectorAccount } from "../connector.ts";
import type { Processor } from "../processor.ts";
import { detailsBody, detailsIdempotencyKey, idempotencyKey, paymentBody, refundBody } from "./requests.ts";
import type { AdyenSettings } from "./settings.ts";
import { type AdyenAnswer, refundOutcome, saleOutcome } from "./transformers.ts";

/** A processor for one Adyen account: sales with 3-D Secure by redirect, and refunds. */
export function adyenProcessor(account: ConnectorAccount<AdyenSettings>): Processor {
  const base = account.url.replace(/\/+$/, "");
  const s = account.settings;
  // Idle connections are closed after 30 s, before a load balancer's usual minute.
  const agent = agentFor(base);

  /** One write to Adyen; `read` turns its answer into an outcome, `knownId` is kept when the call fails. */
  async function post(path: string, body: unknown, key: string, read: (a: AdyenAnswer) => ProcessorOutcome, knownId = ""): Promise<ProcessorOutcome> {
    const apiKey = account.credentials.api_key;
    if (!apiKey) return { kind: "unavailable", message: `account ${account.name} has no credentials.api_key` };
    const text = JSON.stringify(body);
    const headers = {
      "x-api-key": apiKey,
      "idempotency-key": key,
      "content-type": "application/json",
      accept: "application/json",
      "content-length": Buffer.byteLength(text),
    };
    try {
      const res = await exchange(agent, new URL(`${base}${path}`), "POST", headers, text, account.timeoutMs);
      const transient = String(res.headers["transient-error"] ?? "").toLowerCase() === "true";
      return read({ http: res.status, body: jsonOf(res.text), transient });
    } catch (err) {
      // A payment or refund whose connection was never made surely does not exist at Adyen: the cascade may go on.
      // The details call is not such a write: the payment exists, and its notification decides.
      if ((err as Error).name === "NotSentError" && knownId === "")
        return { kind: "unavailable", message: `${account.name} could not be reached; nothing was sent`, notSent: true };
      // The error's name only: a network error's text is not ours to log.
      const why = (err as Error).name === "TimeoutError" ? `no answer within ${account.timeoutMs} ms` : `the call failed (${(err as Error).name})`;
      return { kind: "unknown", transactionId: knownId, message: why };
    }
  }

  return {
    name: account.name,
    capabilities: {
      sale: {
        authorize: async (req) => {
          // Adyen requires a returnUrl on every payment; without one the shopper could not come back from 3-D Secure.
          if (!req.returnUrl) return { kind: "unavailable", message: "Adyen needs a return URL for the shopper; none was given" };
          return post("/payments", paymentBody(req, s), idempotencyKey(s, "payment", String(req.traceId)), (a) => saleOutcome("payments", a));
        },
      },
      refund: {
        refund: async (req) => {
          if (!req.saleTransactionId) return { kind: "unavailable", message: "the sale has no Adyen pspReference to refund" };
          const path = `/payments/${encodeURIComponent(req.saleTransactionId)}/refunds`;
          return post(path, refundBody(req, s), idempotencyKey(s, "refund", String(req.traceId)), refundOutcome);
        },
      },
      threeDSecure: {
        // The simulators' own challenge page: Adyen's verdict comes from returned() (or the notification), never from Cashier.
        complete: async (transactionId) => ({
          kind: "unknown",
          transactionId,
          message: "Adyen's 3-D Secure ends on Adyen's page: the verdict comes with the shopper's redirectResult or the notification",
        }),
        returned: async (transactionId, params) => {
          const redirectResult = params.redirectResult;
          if (!redirectResult) {
            return { kind: "unknown", transactionId, message: "the shopper came back without a redirectResult: the notification decides" };
          }
          const key = detailsIdempotencyKey(s, transactionId, redirectResult);
          return post("/payments/details", detailsBody(redirectResult), key, (a) => saleOutcome("details", a, transactionId), transactionId);
        },
      },
    },
  };
}
