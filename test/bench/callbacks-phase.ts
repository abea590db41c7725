/**
 * The bench's callbacks phase: how fast the engine's delivery worker drains
 * notifications owed to a fast platform, what a delivery costs in CPU, and
 * what slow platforms cost the others.
 *
 *   alone      BENCH_CALLBACKS notifications (default 10,000) owed to one
 *              platform on 127.0.0.1 that answers at once: deliveries/s from
 *              the first delivery to the last, and node + Postgres CPU per
 *              delivery over the drain;
 *   with slow  the same, with four platforms that answer after 5 s each owed
 *              BENCH_CALLBACKS_SLOW (default 500) notifications first: the
 *              fast platform's first delivery after the notices were owed, its
 *              drain, and how much longer the drain took than alone.
 *
 * The notifications are written as the engine's outbox writes them (one real
 * sale's members, each row with its own event id, due now) with the work
 * notice the engine's own writes send; the platforms answer `{"status":0}`.
 */
import { once } from "node:events";
import pg from "pg";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { wireAmount } from "../../engine/shared/money.ts";
import type { Service } from "../support/service.ts";
import { saleBody, sign } from "../support/wire.ts";

/**
 * The platforms' merchants: delivery slots are shared among merchants (callback-claim.ts), so each platform is a
 * merchant of its own (the test merchants and the bench's two).
 */
const FAST_MERCHANT = "m-test";
const SLOW_MERCHANTS = ["m-other", "m-single", "m-bench-cko", "m-bench-adyen"];

/** A platform on 127.0.0.1 answering every callback `{"status":0}` after `delayMs`, counting what it got. */
async function platform(delayMs: number) {
  const got: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        got.push(performance.now());
        res.writeHead(200, { "content-type": "application/json" }).end('{"status":0}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    got,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

type Sample = { cpuMicros: number; pgSeconds: number };

/** What the drain measured. */
export interface DrainFigures {
  count: number;
  /** Deliveries a second, first delivery to last. */
  rate: number;
  /** From the moment they were owed to the first delivery, ms. */
  firstMs: number;
  /** From the moment they were owed to the last delivery, ms. */
  drainMs: number;
  /** node + Postgres CPU per delivery over the drain, ms. */
  cpuMs: number;
}

/**
 * Runs both drains on `svc` (started with CASHIER_CALLBACK_ALLOW_PRIVATE) and
 * answers the lines to print. `pgSeconds` reads the Postgres cluster's CPU
 * seconds so far.
 */
export async function callbacksPhase(
  svc: Service,
  count: number,
  slowCount: number,
  pgSeconds: () => number,
): Promise<{ lines: string[]; alone: DrainFigures }> {
  const fast = await platform(0);
  let filler: pg.Client | undefined;
  const slow = await Promise.all(SLOW_MERCHANTS.map(() => platform(5000)));
  try {
    // A notification's members are the Process reply's plus order_id, transaction_type, amount and currency
    // (notification-codec.ts): those of one real sale, its reply taken from the edge.
    const request = saleBody({ card_number: "4111111111111111" });
    const res = await fetch(new URL("/api/process", svc.edgeUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sign(request)),
    });
    const { signature: _, ...reply } = (await res.json()) as Record<string, unknown>;
    if (reply.status !== 0) throw new Error(`the sale to copy was not approved: ${JSON.stringify(reply)}`);
    const members = JSON.stringify({
      ...reply,
      order_id: request.order_id,
      transaction_type: "sale",
      amount: wireAmount(request.amount as number, "USD"),
      currency: "USD",
    });
    // Each notification for a transaction of its own (the engine delivers one transaction's notifications one after
    // the other, in the order owed), written after the fact as grow-fill.ts writes history: the transition triggers,
    // which check each change as it happens, off for this session.
    filler = new pg.Client({ connectionString: svc.engine.databaseUrl });
    await filler.connect();
    await filler.query("set session_replication_role = replica");
    let batch = 0;
    const owe = async (merchantId: string, url: string, n: number) => {
      batch += 1;
      await filler?.query(
        `with o as (
           insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
             card_masked, card_brand, card_expiry, card_fingerprint, return_url)
           select $1, 'cb-' || $2::int || '-' || g, 'sale', md5(random()::text), 1050, 'USD', f.name, 'cust-42',
             jsonb_build_object('pin', 'cust-42', 'email', 'jane@example.com', 'country', 'GB'),
             '411111******1111', 'VISA', '12/2030', md5(g::text), 'https://merchant.example/return'
           from generate_series(1, $3::int) g, (select name from frontend where merchant_id = $1 order by name limit 1) f
           returning id),
         t as (
           insert into transaction (order_ref, attempt, processor, status, transaction_id, submitted)
           select id, 1, 'sim-a', 'approved', 'px-cb-' || id, true from o
           returning trace_id),
         c as (
           insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, attempts, next_attempt_at)
           select gen_random_uuid(), 'notification', $1, trace_id, $4, $5, 'pending', 0, now() from t
           returning 1)
         select pg_notify('cashier_work', 'callback bench') from (select count(*) from c) n`,
        [merchantId, batch, n, url, members],
      );
    };
    const sample = (): Sample => {
      const u = process.cpuUsage();
      return { cpuMicros: u.user + u.system, pgSeconds: pgSeconds() };
    };
    const drain = async (before: () => Promise<void>): Promise<DrainFigures> => {
      fast.got.length = 0;
      await before();
      const s0 = sample();
      const owed = performance.now();
      await owe(FAST_MERCHANT, fast.url, count);
      await waitFor(() => fast.got.length >= count).catch(async (err: Error) => {
        const states = await svc.sql(
          "select merchant_id, state, count(*)::int as n, count(claim)::int as claimed, min(next_attempt_at) as next from callback group by 1, 2 order by 1, 2",
        );
        throw new Error(`${err.message}: the fast platform got ${fast.got.length}; callbacks by merchant and state: ${JSON.stringify(states)}`);
      });
      const s1 = sample();
      const first = fast.got[0];
      const last = fast.got[count - 1];
      return {
        count,
        rate: count / Math.max((last - first) / 1000, 1e-3),
        firstMs: first - owed,
        drainMs: last - owed,
        cpuMs: ((s1.cpuMicros - s0.cpuMicros) / 1000 + (s1.pgSeconds - s0.pgSeconds) * 1000) / count,
      };
    };
    process.stderr.write(`[bench] callbacks: ${count} notifications owed to one fast platform\n`);
    const alone = await drain(async () => {});
    process.stderr.write(`[bench] callbacks: the same, after ${slowCount} owed to each of four platforms answering in 5 s\n`);
    const withSlow = await drain(async () => {
      for (const [i, p] of slow.entries()) await owe(SLOW_MERCHANTS[i], p.url, slowCount);
      // The slow platforms' calls are in flight before the fast platform is owed anything.
      await waitFor(() => true, 1000);
    });
    const slowGot = slow.reduce((a, p) => a + p.got.length, 0);
    const line = (name: string, d: DrainFigures) =>
      `  ${name.padEnd(26)} ${d.rate.toFixed(0).padStart(6)}/s  first after ${d.firstMs.toFixed(0).padStart(5)} ms  all after ${d.drainMs.toFixed(0).padStart(6)} ms  cpu ${d.cpuMs.toFixed(2)} ms/delivery`;
    return {
      alone,
      lines: [
        "",
        `callbacks (${count} notifications to one platform answering at once; CPU is node + Postgres):`,
        line("alone", alone),
        line("with four slow platforms", withSlow),
        `  the slow platforms cost the fast one ${(withSlow.drainMs - alone.drainMs).toFixed(0)} ms more (${slowGot} slow answers meanwhile)`,
      ],
    };
  } finally {
    // What the slow platforms are still owed is not the bench's business any more.
    await svc.sql("update callback set state = 'delivered', claim = null where state = 'pending'");
    await filler?.end();
    fast.close();
    for (const p of slow) p.close();
  }
}

const WAIT_MS = Number(process.env.BENCH_CALLBACKS_WAIT_MS) || 300_000;

async function waitFor(done: () => boolean, atLeastMs = 0): Promise<void> {
  const began = performance.now();
  for (const end = began + WAIT_MS; performance.now() < end; await sleep(2)) if (done() && performance.now() - began >= atLeastMs) return;
  throw new Error(`the callbacks were not all delivered within ${WAIT_MS / 1000} s`);
}
