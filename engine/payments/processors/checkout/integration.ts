/**
 * The Checkout.com connector's calls: URL, headers, secret key, idempotency
 * key and time limit (Hyperswitch's "integration" half; what an answer means
 * is decided in transformers.ts). Every write carries `Cko-Idempotency-Key`,
 * derived from our trace_id and the operation, so that the same attempt sent
 * twice (a crash between the send and its record) is the same payment at
 * Checkout.com. A call that fails on the network (timeout, reset, refused) is
 * `unknown`, never declined: the follow-up worker asks again by lookup.
 */
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ConnectorAccount } from "../connector.ts";
import type { Capabilities, ChargeRequest, Processor, RefundRequest } from "../processor.ts";
import { agentFor, exchange, jsonOf } from "../http-exchange.ts";

/** An answer: the status and the parsed JSON body (undefined when empty or not JSON). */
interface Answer {
  status: number;
  body: unknown;
}
import { type Built, payoutBody, refundBody, saleBody } from "./requests.ts";
import type { CheckoutSettings } from "./settings.ts";
import { findOutcome, lookupOutcome, obj, refundActionOutcome, str, writeOutcome } from "./transformers.ts";

/** The idempotency key of one operation of one attempt: a replay is the same payment. */
export function idempotencyKey(traceId: number, operation: "sale" | "payout" | "refund"): string {
  return `cashier-${traceId}-${operation}`;
}

/**
 * What a lookup may know of the attempt it asks about. The seam does not pass
 * it yet (processor.ts `status(transactionId)`, `find(traceId)`); with it, a
 * refund is looked up among its sale's actions, as Checkout.com keeps it.
 */
export interface LookupAbout {
  type: "sale" | "payout" | "refund";
  saleTransactionId?: string;
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

  /** A refund among its sale's actions, by its action id or by our reference. */
  async function refundAction(saleId: string, match: (a: Record<string, unknown>) => boolean, none: ProcessorOutcome): Promise<ProcessorOutcome> {
    const r = await send("GET", `/payments/${encodeURIComponent(saleId)}/actions`);
    if (failed(r)) return r;
    if (r.status !== 200 || !Array.isArray(r.body)) return unknown("", `Checkout.com answered HTTP ${r.status} to the actions lookup`);
    const found = r.body.map(obj).filter((a) => str(a.type) === "Refund" && match(a));
    return found.length === 1 ? refundActionOutcome(found[0]) : found.length === 0 ? none : unknown("", "several refunds match");
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
      status: (transactionId: string, about?: LookupAbout) => {
        if (!transactionId.startsWith("act_")) return lookup(transactionId);
        if (about?.type === "refund" && about.saleTransactionId) {
          return refundAction(about.saleTransactionId, (a) => a.id === transactionId, unknown(transactionId, "the sale lists no such refund"));
        }
        return Promise.resolve(unknown(transactionId, "a refund's verdict comes by webhook; a lookup needs its sale's payment id"));
      },
      find: async (traceId: number, about?: LookupAbout) => {
        if (about?.type === "refund" && about.saleTransactionId) {
          const none: ProcessorOutcome = { kind: "unavailable", message: "the sale lists no refund with this reference", mayArriveLate: true };
          return refundAction(about.saleTransactionId, (a) => a.reference === String(traceId), none);
        }
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
