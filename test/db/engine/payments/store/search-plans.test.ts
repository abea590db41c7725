/**
 * The operators' searches stay index seeks and bounded walks at a few hundred
 * thousand orders: a cloned database is filled in SQL (test/support/grow-fill.ts),
 * each store method an API call runs is called, the SQL it really sent (text
 * and parameters, captured at the pg client) is explained, and the plan is
 * checked: the intended index, no sequential scan of a big table, a LIMIT on
 * top; for the searches that match nothing, EXPLAIN ANALYZE's row counts show
 * the read stops at the scan budget. Plans and row counts, never timings.
 */
import pg from "pg";
import t, { type Test } from "tap";
import type { CallbackFilter, FailingFilter } from "../../../../../engine/payments/ports/callbacks.ts";
import type { ListQuery, StuckQuery } from "../../../../../engine/payments/ports/orders.ts";
import { SEARCH_SCAN_BUDGET } from "../../../../../engine/payments/store/transaction-search.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";
import { BIG_MERCHANT, growFill, TINY_MERCHANT } from "../../../../support/grow-fill.ts";

const ORDERS = 200_000;
/** One of the 19 merchants sharing the other half of the orders. */
const MID_MERCHANT = "m-grow-05";
/** The big merchant's orders are half of all: either walk is bounded. */
/** A merchant's orders: walked newest first, or all of them read by the unique (merchant_id, order_id) and sorted when fewer than the budget. */
const MERCHANT_ORDERS = ["payment_order_merchant_created_idx", "payment_order_merchant_order_unique"];
const EITHER_WALK = ["payment_order_merchant_created_idx", "payment_order_created_idx"];
const BIG_TABLES = new Set(["payment_order", "transaction", "transaction_event", "callback", "callback_attempt"]);

const engine = useEngineDeps(t);
let url = "";
let explainer: pg.Client;

t.before(async () => {
  url = engine().orm.config.get("clientUrl") as string;
  await growFill(url, ORDERS);
  explainer = new pg.Client({ connectionString: url });
  await explainer.connect();
});
t.teardown(async () => {
  await explainer?.end();
});

interface Sent {
  text: string;
  values: unknown[];
}

/** Runs `fn` and returns every statement the pg clients sent meanwhile, as sent. */
async function sentBy(fn: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [q, v] = args;
    if (typeof q === "string") sent.push({ text: q, values: Array.isArray(v) ? v : [] });
    else if (q && typeof q === "object" && "text" in q) {
      const c = q as { text: string; values?: unknown[] };
      sent.push({ text: c.text, values: c.values ?? (Array.isArray(v) ? v : []) });
    }
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return sent.filter((s) => /^\s*(select|with)\b/i.test(s.text));
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function explain(s: Sent, analyze = false): Promise<PlanNode> {
  const r = await explainer.query(`explain (${analyze ? "analyze, " : ""}format json) ${s.text}`, s.values);
  return (r.rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
}

const seqScans = (plan: PlanNode) => nodes(plan).filter((n) => n["Node Type"] === "Seq Scan" && BIG_TABLES.has(n["Relation Name"] ?? ""));
const indexes = (plan: PlanNode) => new Set(nodes(plan).flatMap((n) => (n["Index Name"] ? [n["Index Name"]] : [])));
/** Rows the plan's scans of the big tables produced, over all their loops. */
const rowsRead = (plan: PlanNode) =>
  nodes(plan)
    .filter((n) => /Scan/.test(n["Node Type"]) && BIG_TABLES.has(n["Relation Name"] ?? ""))
    .reduce((sum, n) => sum + (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1), 0);

/**
 * Checks what a store call sent: its first statement (the page) uses `index`
 * (or one of `index`: where a merchant holds half the orders, walking all
 * orders newest first and keeping its own is as good) and is limited; no statement scans a big table sequentially; with `bounded`,
 * the page statement and the budget-edge one read at most a few budgets of rows.
 */
async function checkPlans(t: Test, name: string, sent: Sent[], index: string | string[], opts: { bounded?: boolean } = {}) {
  t.ok(sent.length > 0, `${name}: the store sent its query`);
  const [page, ...rest] = sent;
  const plan = await explain(page);
  const used = indexes(plan);
  const wanted = [index].flat();
  t.ok(
    wanted.some((i) => used.has(i)),
    `${name}: uses ${wanted.join(" or ")} (uses ${[...used].join(", ") || "none"})`,
  );
  t.equal(plan["Node Type"], "Limit", `${name}: the page is limited`);
  for (const s of sent) {
    const p = await explain(s);
    if (process.env.SHOW_PLANS && seqScans(p).length) console.error(name, s.text, JSON.stringify(s.values), JSON.stringify(p, null, 1));
    t.same(
      seqScans(p).map((n) => n["Relation Name"]),
      [],
      `${name}: no sequential scan of a big table`,
    );
  }
  if (opts.bounded) {
    for (const s of [page, ...rest.filter((r) => !/callback_attempt/.test(r.text))]) {
      const analysed = await explain(s, true);
      const read = rowsRead(analysed);
      t.ok(read <= 3 * SEARCH_SCAN_BUDGET + 10, `${name}: reads ${read} rows, at most a few budgets (${SEARCH_SCAN_BUDGET})`);
      // The budget's edge is one row, the walk's last: LIMIT counts after OFFSET, so a limit of the budget there
      // read and sent a second budget of rows (2,000 of them converted by the ORM: 35 ms of a 50 ms search).
      if (/\boffset\b/i.test(s.text) && s !== page) {
        t.ok(read <= SEARCH_SCAN_BUDGET + 10, `${name}: the budget's edge reads ${read} rows, at most the budget`);
        t.ok((analysed["Actual Rows"] ?? 0) <= 1, `${name}: the budget's edge returns ${analysed["Actual Rows"]} row, at most one`);
      }
    }
  }
}

const search = (q: Omit<ListQuery, "limit">) => sentBy(() => engine().deps.orders.list({ limit: 51, ...q }));
const deliveries = (f: Omit<CallbackFilter, "limit">) => sentBy(() => engine().deps.callbacks.list({ limit: 51, ...f }));

t.test("ListTransactions: each filter seeks its index, newest first, and stops at the page", async (t) => {
  await checkPlans(t, "all merchants", await search({}), "payment_order_created_idx");
  await checkPlans(t, "the big merchant", await search({ merchantId: BIG_MERCHANT }), EITHER_WALK);
  await checkPlans(t, "a merchant with 2.6 % of the orders", await search({ merchantId: MID_MERCHANT }), "payment_order_merchant_created_idx");
  await checkPlans(t, "a merchant with 20 orders", await search({ merchantId: TINY_MERCHANT }), "payment_order_merchant_created_idx");
  await checkPlans(t, "pin", await search({ pin: "cust-4242" }), "payment_order_pin_idx");
  // The pin's own index, or the hosted Cashier's (merchant_id, pin, type) one: both seek the few orders of that customer.
  await checkPlans(t, "pin of a merchant", await search({ merchantId: BIG_MERCHANT, pin: "cust-4242" }), [
    "payment_order_pin_idx",
    "payment_order_customer_idx",
  ]);
  await checkPlans(t, "e-mail in another case", await search({ email: "CUSTOMER4242@example.COM" }), "payment_order_email_idx");
  await checkPlans(t, "last four", await search({ cardLastFour: "0042" }), "payment_order_last_four_idx");
  await checkPlans(t, "last four of a merchant", await search({ merchantId: BIG_MERCHANT, cardLastFour: "0042" }), "payment_order_last_four_idx");
  await checkPlans(t, "order_id of a merchant", await search({ merchantId: BIG_MERCHANT, orderId: "g-4200" }), "payment_order_merchant_order_unique");
  await checkPlans(t, "order_id alone (skip scan)", await search({ orderId: "g-4201" }), "payment_order_merchant_order_unique");
  await checkPlans(t, "processor transaction id", await search({ processorTransactionId: "px-4242-1" }), "transaction_processor_id_idx");
  const [{ trace_id }] = await engine().sql<{ trace_id: number }>("select max(trace_id) - 5000 as trace_id from transaction");
  await checkPlans(t, "trace_id", await search({ traceId: Number(trace_id) }), "transaction_pkey");
  const day = 86_400_000;
  const old = { startTime: new Date(Date.now() - 4 * day), endTime: new Date(Date.now() - 3 * day) };
  await checkPlans(t, "an old day, all merchants", await search(old), "payment_order_created_idx");
  await checkPlans(t, "an old day of the big merchant", await search({ merchantId: BIG_MERCHANT, ...old }), EITHER_WALK);
  await checkPlans(t, "an old day of a merchant", await search({ merchantId: MID_MERCHANT, ...old }), "payment_order_merchant_created_idx");
  await checkPlans(t, "status and type", await search({ merchantId: MID_MERCHANT, status: "approved", type: "payout" }), "payment_order_merchant_created_idx");
  await checkPlans(t, "frontend and processor", await search({ frontend: `${BIG_MERCHANT}-fe1`, processor: "sim-a" }), "payment_order_created_idx");
});

t.test("ListTransactions: a filter no index serves reads at most the scan budget per call, then hands a token on", async (t) => {
  const nothing = await search({ merchantId: BIG_MERCHANT, processor: "no-such-processor" });
  await checkPlans(t, "a processor nobody uses", nothing, EITHER_WALK, { bounded: true });
  await checkPlans(
    t,
    "a merchant's orders at a processor nobody uses",
    await search({ merchantId: MID_MERCHANT, processor: "no-such-processor" }),
    MERCHANT_ORDERS,
    { bounded: true },
  );
  await checkPlans(t, "a rare status, all merchants", await search({ status: "pending" }), "payment_order_created_idx", { bounded: true });
  // A Backoffice operator scoped to several merchants: the scope is checked on the orders the walk reads.
  await checkPlans(
    t,
    "a scope of two merchants",
    await search({ merchantIds: [MID_MERCHANT, TINY_MERCHANT], processor: "no-such-processor" }),
    "payment_order_created_idx",
    {
      bounded: true,
    },
  );
  const first = await engine().deps.orders.list({ merchantId: BIG_MERCHANT, processor: "no-such-processor", limit: 51 });
  t.equal(first.rows.length, 0, "nothing matches");
  t.ok(first.scannedTo, "but the call stopped at its budget and says where");
  const next = await search({ merchantId: BIG_MERCHANT, processor: "no-such-processor", after: first.scannedTo });
  await checkPlans(t, "the next call, from the token", next, EITHER_WALK, { bounded: true });
  const page2 = await engine().deps.orders.list({ merchantId: BIG_MERCHANT, limit: 51, after: { ...first.scannedTo!, attempt: 1 } });
  t.ok(page2.rows.length > 0, "the search resumes below the token");
});

t.test("stuck transactions walk the partial index of open attempts", async (t) => {
  const stuck = (q: Omit<StuckQuery, "limit">) => sentBy(() => engine().deps.orders.stuck({ limit: 51, ...q }));
  const horizon = new Date(Date.now() - 900_000);
  await checkPlans(t, "all merchants", await stuck({ createdBefore: horizon }), "transaction_open_idx");
  // A merchant with 20 orders: its own orders (then each one's attempts by key) are as few rows as the
  // open attempts, so the planner may take either walk, by the sampled statistics; both are bounded.
  await checkPlans(t, "one merchant", await stuck({ createdBefore: horizon, merchantId: TINY_MERCHANT }), [
    "transaction_open_idx",
    "payment_order_merchant_created_idx",
  ]);
  const found = await engine().deps.orders.stuck({ createdBefore: horizon, limit: 1000 });
  t.ok(found.length > 0 && found.every((a) => ["pending", "pending_async", "requested"].includes(a.status)), `${found.length} stuck attempts, all open`);
});

t.test("ListDeliveries and the failing deliveries: merchant, kind, state, bounded", async (t) => {
  await checkPlans(t, "the big merchant's", await deliveries({ merchantId: BIG_MERCHANT }), ["callback_merchant_idx", "callback_pkey"]);
  // A merchant with a few per cent of the rows: walking the primary key backwards meets 50 of its rows soon, so
  // the planner may take either walk (which one depends on the sampled statistics); both stop at the limit.
  await checkPlans(t, "a merchant's", await deliveries({ merchantId: MID_MERCHANT }), ["callback_merchant_idx", "callback_pkey"]);
  // A merchant with a handful of rows: a primary-key walk would read the whole table, so only its index will do.
  await checkPlans(t, "a small merchant's", await deliveries({ merchantId: TINY_MERCHANT }), "callback_merchant_idx");
  // The big merchant's unsettled callbacks are half of all: walking every merchant's newest first meets its own as
  // soon; a small merchant's are found only through the merchant's index.
  const unsettled = ["callback_unsettled_idx", "callback_unsettled_newest_idx"];
  await checkPlans(t, "a merchant's failed", await deliveries({ merchantId: BIG_MERCHANT, state: "failed" }), unsettled);
  await checkPlans(t, "a small merchant's failed", await deliveries({ merchantId: TINY_MERCHANT, state: "failed" }), "callback_unsettled_idx");
  await checkPlans(t, "every merchant's failed", await deliveries({ state: "failed" }), "callback_unsettled_newest_idx");
  await checkPlans(
    t,
    "a merchant's payouts",
    await deliveries({ merchantId: MID_MERCHANT, kind: "update_payout" }),
    ["callback_merchant_idx", "callback_pkey"],
    {
      bounded: true,
    },
  );
  await checkPlans(t, "a kind nobody sent", await deliveries({ kind: "validation" }), "callback_pkey", { bounded: true });
  await checkPlans(t, "a transaction's", await deliveries({ traceId: 4242 }), "callback_trace_idx");
  const failing = (f: Omit<FailingFilter, "limit">) => sentBy(() => engine().deps.callbacks.failing({ limit: 51, ...f }));
  await checkPlans(t, "failing, one merchant", await failing({ merchantId: BIG_MERCHANT, minAttempts: 3 }), unsettled);
  await checkPlans(t, "failing, a small merchant", await failing({ merchantId: TINY_MERCHANT, minAttempts: 3 }), "callback_unsettled_idx");
  // Every merchant's: the unsettled callbacks by id alone (033), a walk that stops at the page, not all of them sorted.
  await checkPlans(t, "failing, all merchants", await failing({ minAttempts: 3 }), "callback_unsettled_newest_idx");
  const rows = await engine().deps.callbacks.failing({ minAttempts: 3, limit: 500 });
  t.ok(
    rows.length > 0 && rows.every((c) => c.state === "failed" || c.state === "refused" || (c.state === "pending" && c.attemptCount >= 3)),
    `${rows.length} failing callbacks, each failed, refused or retried 3+ times`,
  );
});
