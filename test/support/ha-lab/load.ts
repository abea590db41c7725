/**
 * The platform's side of the failover test: clients that each send signed
 * sales and payouts one after the other, as a platform does, and retry a
 * refusal that says "retry later" (HTTP 503, status -2) with the same
 * order_id until it is answered. Every answer is kept, so that the test can
 * hold each one against the database afterwards and count the refusals and
 * the time the switch took.
 */
import type { EngineClient } from "../../../edge/engine-client.ts";
import { orderId, post, saleBody, sign } from "../wire.ts";
import { type Outcome, sendGrpc } from "./grpc-order.ts";

/** What a client asks: a sale the acquirer approves, declines or answers later, or a payout. */
export type Operation = "sale-approved" | "sale-declined" | "sale-pending" | "payout";

const CARDS: Record<Operation, string> = {
  "sale-approved": "4111111111111111",
  "sale-declined": "4000000000000002",
  "sale-pending": "4000000000000077",
  payout: "4111111111111111",
};

/** Mostly approved sales, as a platform's traffic is; every kind owes the platform callbacks. */
const MIX: Operation[] = ["sale-approved", "sale-approved", "sale-approved", "sale-approved", "sale-declined", "sale-pending", "payout", "payout"];

/** A final answer (not "retry later"), with when the order was first sent and how many refusals came before it. */
export interface Answer {
  op: Operation;
  via: "http" | "grpc";
  orderId: string;
  http: number;
  status: number | undefined;
  transactionStatus: string | undefined;
  traceId: number | undefined;
  firstSentAt: number;
  sentAt: number;
  answeredAt: number;
  refusals: number;
  text: string;
}

/** A "retry later" answer: the HTTP status and the body's status (503 and -2 when right), or the gRPC code. */
export interface Refusal {
  op: Operation;
  via: "http" | "grpc";
  orderId: string;
  /** When the refused try was sent, and when its refusal came back. */
  at: number;
  answeredAt: number;
  http: number;
  status: number | undefined;
  /** gRPC: the code and the engine's reason (`Unavailable/UNAVAILABLE` when right). */
  code: string;
  text: string;
}

export interface LoadReport {
  answers: Answer[];
  refusals: Refusal[];
  /** Requests the edge did not answer at all (a socket error): the edge never goes away here, so none is expected. */
  unanswered: { op: Operation; orderId: string; at: number; error: string }[];
}

export interface Load {
  report: LoadReport;
  /** Stops sending new orders; resolves once every client's order in hand is answered. */
  stop(): Promise<LoadReport>;
}

export interface LoadOptions {
  edgeUrl: string;
  /** Where the platform hears of changes after the reply (the test's platform stub). */
  notifyUrl: string;
  clients: number;
  merchantId: string;
  frontend: string;
  /** Pause before resending a refused order (a platform's retry delay). */
  retryMs?: number;
  /** The first `clients` clients send Process over gRPC to the engine with a service token instead. */
  grpc?: { client: EngineClient; clients: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bodyOf(o: LoadOptions, op: Operation, oid: string) {
  const common = { merchant_id: o.merchantId, frontend: o.frontend, order_id: oid, card_number: CARDS[op], notification_url: o.notifyUrl };
  return op === "payout" ? saleBody({ ...common, transaction_type: "payout", cvv: undefined, amount: 2500 }) : saleBody({ ...common, amount: 1050 });
}

/** Sends the order once over the merchant API (signed afresh: its timestamp new, its parameters the same). */
async function sendHttp(o: LoadOptions, op: Operation, oid: string): Promise<Outcome> {
  const r = await post(o.edgeUrl, sign(bodyOf(o, op, oid)));
  return {
    retry: r.http === 503,
    http: r.http,
    status: r.body.status,
    code: String(r.http),
    transactionStatus: r.body.transaction_status,
    traceId: r.body.trace_id,
    text: r.text,
  };
}

/** Starts `clients` platforms' worth of traffic at once. */
export function startLoad(o: LoadOptions): Load {
  const report: LoadReport = { answers: [], refusals: [], unanswered: [] };
  let stopped = false;
  const client = async (i: number) => {
    const grpc = o.grpc && i < o.grpc.clients ? o.grpc.client : undefined;
    const via = grpc ? "grpc" : "http";
    for (let n = 0; !stopped; n++) {
      const op = MIX[(i + n) % MIX.length];
      const oid = orderId(`ha-${op}`);
      const firstSentAt = performance.now();
      let refusals = 0;
      // One order until it is answered: a refusal is retried with the same order_id, as the platform must.
      for (;;) {
        const sentAt = performance.now();
        const r = await (grpc ? sendGrpc(grpc, { ...o, orderId: oid, card: CARDS[op], payout: op === "payout" }) : sendHttp(o, op, oid)).catch(
          (err: unknown) => {
            report.unanswered.push({ op, orderId: oid, at: sentAt, error: String(err) });
            return undefined;
          },
        );
        if (r && !r.retry) {
          const { retry: _, code: __, ...answer } = r;
          report.answers.push({ op, via, orderId: oid, ...answer, firstSentAt, sentAt, answeredAt: performance.now(), refusals });
          break;
        }
        if (r)
          report.refusals.push({
            op,
            via,
            orderId: oid,
            at: sentAt,
            answeredAt: performance.now(),
            http: r.http,
            status: r.status,
            code: r.code,
            text: r.text,
          });
        refusals += 1;
        await sleep(o.retryMs ?? 200);
      }
    }
  };
  const running = Promise.all(Array.from({ length: o.clients }, (_, i) => client(i)));
  return {
    report,
    async stop() {
      stopped = true;
      await running;
      return report;
    },
  };
}

/** The figures of one switch, from the moment of the fault (performance.now()). */
export interface SwitchFigures {
  /**
   * Seconds from the fault until a sale first sent after the last refusal (or after the fault, when none was
   * refused) was approved: from then on, sales succeed again.
   */
  secondsToSuccess: number;
  /** The longest an order in flight during the switch waited for its answer, refusals and retries included. */
  longestWaitSeconds: number;
  refusals: number;
  /** Orders answered while the switch went on that needed at least one retry. */
  retriedOrders: number;
  answers: number;
}

/** Reads a report around a fault at `faultAt`. */
export function switchFigures(report: LoadReport, faultAt: number): SwitchFigures {
  // Refusals by when they came back: a call sent just before the fault is refused by the switch.
  const after = report.refusals.filter((r) => r.answeredAt >= faultAt);
  const lastRefusal = Math.max(faultAt, ...after.map((r) => r.answeredAt));
  const clean = report.answers.filter((a) => a.op.startsWith("sale") && a.http === 200 && a.firstSentAt > lastRefusal);
  const recovered = Math.min(...clean.map((a) => a.answeredAt));
  const during = report.answers.filter((a) => a.answeredAt >= faultAt && a.firstSentAt <= recovered);
  return {
    secondsToSuccess: Number.isFinite(recovered) ? (recovered - faultAt) / 1000 : Number.NaN,
    longestWaitSeconds: Math.max(0, ...during.map((a) => (a.answeredAt - a.firstSentAt) / 1000)),
    refusals: after.length,
    retriedOrders: report.answers.filter((a) => a.refusals > 0 && a.answeredAt >= faultAt).length,
    answers: report.answers.filter((a) => a.answeredAt >= faultAt).length,
  };
}

/** Answers and refusals per second around the fault (`+3s 12 ok 40 refused`), for the eye: where the switch was. */
export function timeline(report: LoadReport, faultAt: number, fromS = -2, toS = 60): string[] {
  const lines: string[] = [];
  for (let s = fromS; s < toS; s++) {
    const inSecond = (at: number) => at >= faultAt + s * 1000 && at < faultAt + (s + 1) * 1000;
    const ok = report.answers.filter((a) => inSecond(a.answeredAt)).length;
    const refused = report.refusals.filter((r) => inSecond(r.answeredAt)).length;
    lines.push(`${s >= 0 ? "+" : ""}${s}s ${ok} answered ${refused} refused`);
  }
  return lines;
}
