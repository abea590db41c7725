/**
 * The Adyen connector's HTTP calls to Checkout API v71: the account's base URL
 * (https://checkout-test.adyen.com/v71, a live prefix URL, or a local
 * stand-in), `X-API-Key`, an `Idempotency-Key` on every write, and one call's
 * time limit. What an answer means is decided in transformers.ts; a call that
 * fails on the network (timeout, reset, refused) is `unknown`, never declined.
 * Adyen has no lookup by reference, so such an attempt is settled by its
 * notification, or by sending the same request again with the same key.
 */
import http from "node:http";
import https from "node:https";
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ConnectorAccount } from "../connector.ts";
import type { Processor } from "../processor.ts";
import { detailsBody, detailsIdempotencyKey, idempotencyKey, paymentBody, refundBody } from "./requests.ts";
import type { AdyenSettings } from "./settings.ts";
import { type AdyenAnswer, refundOutcome, saleOutcome } from "./transformers.ts";

/**
 * One HTTP exchange on a kept-alive connection (node:http's Agent, as the
 * simulators' connector, decision 0013). Resolves with the status, the body's
 * text and whether Adyen marked the error transient; rejects with an error
 * named "TimeoutError" when no complete answer came within `timeoutMs`.
 */
function exchange(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string | number>,
  body: string,
  timeoutMs: number,
): Promise<AdyenAnswer & { text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request(url, { method: "POST", headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        const transient = String(res.headers["transient-error"] ?? "").toLowerCase() === "true";
        resolve({ http: res.statusCode ?? 0, body: undefined, text: Buffer.concat(chunks).toString("utf8"), transient });
      });
      res.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on("close", () => {
        if (res.complete) return;
        clearTimeout(timer);
        const err = new Error("the answer was cut off");
        err.name = "ResetError";
        reject(err);
      });
    });
    const timer = setTimeout(() => {
      const err = new Error(`no answer within ${timeoutMs} ms`);
      err.name = "TimeoutError";
      req.destroy(err);
      reject(err); // settled here too, whatever the stream emits after a destroy
    }, timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A processor for one Adyen account: sales with 3-D Secure by redirect, and refunds. */
export function adyenProcessor(account: ConnectorAccount<AdyenSettings>): Processor {
  const base = account.url.replace(/\/+$/, "");
  const s = account.settings;
  // Idle connections are closed after 30 s, before a load balancer's usual minute.
  const agent = new (base.startsWith("https:") ? https : http).Agent({ keepAlive: true, timeout: 30_000 });

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
      const res = await exchange(agent, new URL(`${base}${path}`), headers, text, account.timeoutMs);
      return read({ http: res.http, body: parse(res.text), transient: res.transient });
    } catch (err) {
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
