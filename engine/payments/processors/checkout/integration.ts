/**
 * The Checkout.com connector's calls: URL, headers, secret key, idempotency
 * key and time limit (Hyperswitch's "integration" half; what an answer means
 * is decided in transformers.ts). Every write carries `Cko-Idempotency-Key`,
 * derived from our trace_id and the operation, so that the same attempt sent
 * twice (a crash between the send and its record) is the same payment at
 * Checkout.com. A call that fails on the network once it may have reached
 * Checkout.com (timeout, reset) is `unknown`, never declined: the follow-up
 * worker asks again by lookup. A write whose connection could not be made
 * (refused, no such host) is `unavailable` and `notSent`, so that a sale goes
 * on to the cascade's next account.
 */
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ConnectorAccount } from "../connector.ts";
import type { Capabilities, ChargeRequest, LookupAbout, Processor, RefundRequest } from "../processor.ts";
import { agentFor, exchange, jsonOf } from "../http-exchange.ts";
import { type Built, payoutBody, refundBody, saleBody } from "./requests.ts";
import type { CheckoutSettings } from "./settings.ts";
import { findOutcome, lookupOutcome, type RefundMatch, refundActionsOutcome, writeOutcome } from "./transformers.ts";

/** An answer: the status and the parsed JSON body (undefined when empty or not JSON). */
interface Answer {
  status: number;
  body: unknown;
}

/** The idempotency key of one operation of one attempt: a replay is the same payment. */
export function idempotencyKey(traceId: number, operation: "sale" | "payout" | "refund"): string {
  return `cashier-${traceId}-${operation}`;
}

const unknown = (transactionId: string, message: string): ProcessorOutcome => ({ kind: "unknown", transactionId, message });

export function checkoutProcessor(account: ConnectorAccount<CheckoutSettings>): Processor {
  const base = account.url.replace(/\/+$/, "");
  const agent = agentFor(base);
  const secret = account.credentials.secret_key ?? "";

  /** One exchange; a network failure is already the `unknown` outcome. */
  async function send(method: "GET" | "POST", path: string, body?: unknown, key?: string): Promise<Answer | ProcessorOutcome> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${secret}`, accept: "application/json" };
    if (text !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(text);
    }
    if (key) headers["cko-idempotency-key"] = key;
    try {
      const res = await exchange(agent, new URL(`${base}${path}`), method, headers, text, account.timeoutMs);
      return { status: res.status, body: jsonOf(res.text) };
    } catch (err) {
      // The error's name only: a network error's text is not ours to log.
      const name = (err as Error).name;
      // A write whose connection was never made surely does not exist at Checkout.com: the cascade may go on.
      if (name === "NotSentError" && method === "POST")
        return { kind: "unavailable", message: `${account.name} could not be reached; nothing was sent`, notSent: true };
      return unknown("", name === "TimeoutError" ? `no answer within ${account.timeoutMs} ms` : `the call failed (${name})`);
    }
  }
  const failed = (r: Answer | ProcessorOutcome): r is ProcessorOutcome => "kind" in r;

  async function write(flow: "sale" | "payout" | "refund", path: string, built: Built, traceId: number): Promise<ProcessorOutcome> {
    if (!built.ok) return { kind: "unavailable", message: built.why };
    if (!secret) return { kind: "unavailable", message: `account ${account.name} has no secret_key` };
    const r = await send("POST", path, built.body, idempotencyKey(traceId, flow));
    return failed(r) ? r : writeOutcome(flow, r.status, r.body);
  }

  async function lookup(paymentId: string): Promise<ProcessorOutcome> {
    const r = await send("GET", `/payments/${encodeURIComponent(paymentId)}`);
    return failed(r) ? r : lookupOutcome(r.status, r.body);
  }

  /** A refund among its sale's actions (Checkout.com keeps refunds there, not as payments), by its action id or our reference. */
  async function refundAction(saleId: string, match: RefundMatch): Promise<ProcessorOutcome> {
    const id = "actionId" in match ? match.actionId : "";
    if (!saleId) return unknown(id, "the refund's sale has no Checkout.com payment id to look it up by");
    const r = await send("GET", `/payments/${encodeURIComponent(saleId)}/actions`);
    if (failed(r)) return r.kind === "unknown" ? { ...r, transactionId: id } : r;
    return refundActionsOutcome(r.status, r.body, match);
  }

  const capabilities: Partial<Capabilities> = {
    sale: { authorize: (req: ChargeRequest) => write("sale", "/payments", saleBody(req, account.settings), req.traceId) },
    refund: {
      refund: (req: RefundRequest) => write("refund", `/payments/${encodeURIComponent(req.saleTransactionId)}/refunds`, refundBody(req), req.traceId),
    },
    threeDSecure: {
      // Both ask Checkout.com for the verdict of our own payment id. The return URL's cko-session-id comes through the
      // customer's browser and is not trusted to name the payment; `passed` is a simulator's click and means nothing here.
      complete: (transactionId) => lookup(transactionId),
      returned: (transactionId) => lookup(transactionId),
    },
    statusLookup: {
      // A refund is an action of its sale at Checkout.com: looked up there, never as a payment (its reference is no
      // payment's, and its action id no payment id).
      status: (transactionId: string, about?: LookupAbout) =>
        about?.type === "refund" ? refundAction(about.saleTransactionId ?? "", { actionId: transactionId }) : lookup(transactionId),
      find: async (traceId: number, about?: LookupAbout) => {
        if (about?.type === "refund") return refundAction(about.saleTransactionId ?? "", { reference: String(traceId) });
        const r = await send("GET", `/payments?reference=${encodeURIComponent(String(traceId))}`);
        return failed(r) ? r : findOutcome(traceId, r.status, r.body);
      },
    },
  };
  if (account.settings.payout) {
    capabilities.payout = { payout: (req: ChargeRequest) => write("payout", "/payments", payoutBody(req, account.settings), req.traceId) };
  }
  return { name: account.name, capabilities };
}
