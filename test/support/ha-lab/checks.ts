/**
 * What the failover test holds the platform's answers against, read from the
 * database once the switch is over: each answer's transaction as the
 * database keeps it, orders with two approvals, callbacks still owed, and
 * the engine's LISTEN connection. A fresh connection per reading: the
 * primary may have changed since the last one.
 */
import pg from "pg";
import { closeClient } from "./close-client.ts";
import type { Answer, Operation } from "./load.ts";

/** What a platform may be answered for each kind of order: a pending one is settled later and notified. */
export const RIGHT_ANSWERS: Record<Operation, string[]> = {
  "sale-approved": ["approved", "pending"],
  "sale-declined": ["declined", "pending"],
  "sale-pending": ["pending"],
  // A payout's replay may find it still requested: its walk to the acquirer was cut by the switch.
  payout: ["approved", "pending", "requested"],
};

/** Answers that say "not final yet": the platform hears the end by a callback. */
const NOT_FINAL = ["pending", "requested"];

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, query_timeout: 15_000 });
  c.on("error", () => {});
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await closeClient(c);
  }
}

/** An answered order as the database holds it: its transactions (one per attempt) and their states. */
export interface StoredOrder {
  orderId: string;
  orders: number;
  traces: { traceId: number; status: string }[];
}

export async function storedOrders(url: string, merchantId: string, orderIds: string[]): Promise<Map<string, StoredOrder>> {
  const rows = await query<{ order_id: string; orders: number; traces: { traceId: number; status: string }[] }>(
    url,
    `select o.order_id, count(distinct o.id)::int as orders,
            coalesce(json_agg(json_build_object('traceId', t.trace_id, 'status', t.status) order by t.trace_id) filter (where t.trace_id is not null), '[]') as traces
       from payment_order o left join transaction t on t.order_ref = o.id
      where o.merchant_id = $1 and o.order_id = any($2) group by o.order_id`,
    [merchantId, orderIds],
  );
  return new Map(rows.map((r) => [r.order_id, { orderId: r.order_id, orders: r.orders, traces: r.traces }]));
}

/**
 * The answers the database contradicts: an order missing or doubled, an answered trace_id that is not its order's,
 * a final answer the database holds otherwise, an answer of the wrong kind for the card, a pending one never settled.
 */
export function contradictions(answers: Answer[], stored: Map<string, StoredOrder>): string[] {
  const out: string[] = [];
  for (const a of answers) {
    const where = `${a.op} ${a.orderId} over ${a.via} (trace ${a.traceId}, answered ${a.transactionStatus})`;
    if (a.http !== 200) {
      out.push(`${where}: ${a.via === "grpc" ? "refused" : `HTTP ${a.http}`}: ${a.text.slice(0, 200)}`);
      continue;
    }
    if (!RIGHT_ANSWERS[a.op].includes(a.transactionStatus ?? "")) out.push(`${where}: not a right answer for this card`);
    const s = stored.get(a.orderId);
    if (s?.orders !== 1) {
      out.push(`${where}: ${s?.orders ?? 0} orders in the database`);
      continue;
    }
    const trace = s.traces.find((x) => x.traceId === a.traceId);
    if (!trace) out.push(`${where}: its trace is not the order's (${JSON.stringify(s.traces)})`);
    else if (!NOT_FINAL.includes(a.transactionStatus ?? "") && trace.status !== a.transactionStatus) out.push(`${where}: the database says ${trace.status}`);
    else if (NOT_FINAL.includes(trace.status)) out.push(`${where}: still ${trace.status} in the database`);
  }
  return out;
}

/** Orders of the merchant with more than one approved transaction: a sale taken twice. */
export async function doubleApprovals(url: string, merchantId: string): Promise<string[]> {
  const rows = await query<{ order_id: string }>(
    url,
    `select o.order_id from payment_order o join transaction t on t.order_ref = o.id
      where o.merchant_id = $1 and t.status = 'approved' group by o.order_id having count(*) > 1`,
    [merchantId],
  );
  return rows.map((r) => r.order_id);
}

/** Orders whose transactions are not all final yet (pending at the acquirer, or waiting for a lookup). */
export async function unsettledOrders(url: string, merchantId: string, orderIds: string[]): Promise<number> {
  const rows = await query<{ n: number }>(
    url,
    `select count(*)::int as n from payment_order o join transaction t on t.order_ref = o.id
      where o.merchant_id = $1 and o.order_id = any($2) and t.status in ('pending', 'requested', 'pending_async')`,
    [merchantId, orderIds],
  );
  return rows[0].n;
}

/** Callbacks still owed (pending, a few of them described), given up, and the event ids of those delivered. */
export async function callbackStates(url: string): Promise<{ pending: number; stuck: string[]; failed: number; delivered: string[] }> {
  const rows = await query<{ state: string; event_id: string; kind: string; attempts: number; due: string; claimed: boolean; trace_id: number }>(
    url,
    `select state, event_id::text, kind, attempts, to_char(next_attempt_at - now(), 'SS.MS') as due, claim is not null as claimed, trace_id
       from callback where kind <> 'validation'`,
  );
  const pending = rows.filter((r) => r.state === "pending");
  return {
    pending: pending.length,
    stuck: pending
      .slice(0, 5)
      .map((r) => `${r.kind} of trace ${r.trace_id}: ${r.attempts} attempts, due in ${r.due} s, ${r.claimed ? "claimed" : "unclaimed"}`),
    failed: rows.filter((r) => r.state === "failed" || r.state === "refused").length,
    delivered: rows.filter((r) => r.state === "delivered").map((r) => r.event_id),
  };
}

/** How many of the engine's work-listener connections the current primary has (engine/store/work-listener.ts). */
export async function listeners(url: string, applicationName: string): Promise<number> {
  const rows = await query<{ n: number }>(url, "select count(*)::int as n from pg_stat_activity where application_name = $1", [applicationName]);
  return rows[0].n;
}

/** The engine's warnings and errors (pino JSON lines at level 40 or more), one line per message with its count and span. */
export function warningsOf(out: string): string[] {
  const seen = new Map<string, { n: number; first: string; last: string; sample: string }>();
  for (const line of out.split("\n")) {
    if (!line.startsWith("{")) continue;
    let o: { level?: number | string; msg?: string; time?: string; err?: { message?: string } };
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (!o.msg || !(typeof o.level === "number" ? o.level >= 40 : ["warn", "error", "fatal"].includes(o.level ?? ""))) continue;
    const s = seen.get(o.msg) ?? { n: 0, first: o.time ?? "", last: "", sample: o.err?.message ?? "" };
    s.n += 1;
    s.last = o.time ?? "";
    seen.set(o.msg, s);
  }
  return [...seen].map(([msg, s]) => `${s.n}x ${s.first.slice(11, 23)}..${s.last.slice(11, 23)} ${msg}${s.sample ? ` (${s.sample.slice(0, 120)})` : ""}`);
}

/** How the orders answered "not final yet" ended, counted (`payout requested -> declined: 3`): what the platform was then told by callback. */
export function laterOutcomes(answers: Answer[], stored: Map<string, StoredOrder>): string[] {
  const counts = new Map<string, number>();
  for (const a of answers) {
    if (!NOT_FINAL.includes(a.transactionStatus ?? "") || a.op === "sale-pending") continue;
    const end = stored.get(a.orderId)?.traces.find((x) => x.traceId === a.traceId)?.status ?? "missing";
    const key = `${a.op} ${a.transactionStatus} -> ${end}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}: ${n}`);
}
