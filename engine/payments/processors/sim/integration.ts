/**
 * The connector of the simulated acquirers (sim-a, sim-b): the HTTP calls,
 * their time limit and the API key header. Every payment carries our trace_id
 * as its Idempotency-Key; lost answers are found again by that key. What a
 * call means is decided in transformers.ts; a call that fails on the network
 * (timeout, reset) is `unknown`, never declined. A payment whose connection
 * could not be made (the simulator down: refused) was surely not sent: it is
 * `unavailable` and `notSent`, so a sale goes on to the cascade's next account;
 * a lookup or a challenge's completion that could not connect stays `unknown`
 * and is asked again later.
 */
import { agentFor, exchange, jsonOf } from "../http-exchange.ts";
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { Processor } from "../processor.ts";
import { paymentBody, toOutcome } from "./transformers.ts";

export interface SimConnectorSettings {
  /** The processor's name in Cashier (sim-a, sim-b). */
  name: string;
  /** The acquirer simulator's base URL. */
  url: string;
  apiKey: string;
  /** One call's limit (schedule.processor.timeoutMs). */
  timeoutMs: number;
}

export function simConnector(s: SimConnectorSettings): Processor {
  const base = s.url.replace(/\/+$/, "");
  // Idle connections are closed after 30 s, well before the simulator's own 65 s,
  // so a request never goes out on a connection the other side is closing.
  const agent = agentFor(base);

  async function call(method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string, payment = false): Promise<ProcessorOutcome> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${s.apiKey}`, accept: "application/json" };
    if (text !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(text);
    }
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    try {
      const res = await exchange(agent, new URL(`${base}${path}`), method, headers, text, s.timeoutMs);
      return toOutcome(res.status, jsonOf(res.text));
    } catch (err) {
      if (payment && (err as Error).name === "NotSentError")
        return { kind: "unavailable", message: `${s.name} could not be reached; nothing was sent`, notSent: true };
      // The error's name only: a network error's text is not ours to log.
      const why = (err as Error).name === "TimeoutError" ? `no answer within ${s.timeoutMs} ms` : `the call failed (${(err as Error).name})`;
      return { kind: "unknown", transactionId: "", message: why };
    }
  }

  const pay = (operation: "sale" | "payout" | "refund", req: Parameters<typeof paymentBody>[1]) =>
    call("POST", "/v1/payments", paymentBody(operation, req), String(req.traceId), true);

  return {
    name: s.name,
    capabilities: {
      sale: { authorize: (req) => pay("sale", req) },
      payout: { payout: (req) => pay("payout", req) },
      refund: { refund: (req) => pay("refund", req) },
      threeDSecure: { complete: (id, passed) => call("POST", `/v1/payments/${encodeURIComponent(id)}/3ds`, { passed }) },
      statusLookup: {
        status: (id) => call("GET", `/v1/payments/${encodeURIComponent(id)}`),
        find: (traceId) => call("GET", `/v1/payments?idempotency_key=${traceId}`),
      },
    },
  };
}
