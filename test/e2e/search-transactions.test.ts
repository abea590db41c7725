/**
 * The operators' searches over real gRPC against the running service
 * (ListTransactions' e-mail, processor transaction id, card last four,
 * processor, frontend and trace_id filters; AdminService's failing deliveries
 * and stuck transactions): each returns exactly the matching attempts of the
 * sales, payouts and declines made through the edge, page tokens walk every
 * page once, and each malformed filter is INVALID_ARGUMENT naming its field.
 * A filter no index serves, over more orders than one call reads, answers
 * with short pages and tokens that together find every match and then end.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { CallbackKind } from "../../gen/cashier/engine/v1/callback_pb.js";
import { BIG_MERCHANT, growFill } from "../support/grow-fill.ts";
import { useService } from "../support/service.ts";
import { processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

const svc = useService(t);

const run = Date.now().toString(36);
const pin = `srch-${run}`;
/** What was made, by trace_id, as the edge answered it. */
const made: { traceId: number; email: string; lastFour: string; frontend: string; type: "sale" | "payout"; approved: boolean }[] = [];

t.before(async () => {
  const make = async (over: Record<string, unknown>, lastFour: string, type: "sale" | "payout" = "sale") => {
    const r = await processSale(svc().edgeUrl, { pin, ...over });
    if (typeof r.body.trace_id !== "number") throw new Error(`no trace_id: ${JSON.stringify(r.body)}`);
    made.push({
      traceId: r.body.trace_id,
      email: String(over.email ?? "jane@example.com"),
      lastFour,
      frontend: String(over.frontend ?? "test-usd"),
      type,
      approved: r.body.transaction_status === "approved",
    });
  };
  await make({ email: `Ann.${run}@Example.COM` }, "1111");
  await make({ email: `ann.${run}@example.com`, card_number: "5555555555554444" }, "4444");
  await make({ email: `bob.${run}@example.com`, card_number: "4000000000000002" }, "0002");
  await make({ email: `bob.${run}@example.com`, frontend: "test-eur", currency: "EUR" }, "1111");
  await make({ email: `ann.${run}@example.com`, transaction_type: "payout", cvv: undefined }, "1111", "payout");
  await make({ email: `carl.${run}@example.com`, card_number: "5555555555554444" }, "4444");
  await make({ email: `carl.${run}@example.com` }, "1111");
});

type Query = Parameters<ReturnType<typeof svc>["client"]["listTransactions"]>[0];

/** Every page of a search (pin-scoped), walked by its tokens; fails on a repeat. */
async function all(q: Query, pageSize = 2): Promise<number[]> {
  const seen: number[] = [];
  let pageToken = "";
  for (let pages = 0; pages < 100; pages++) {
    const page = await svc().client.listTransactions({ pin, ...q, pageSize, pageToken });
    seen.push(...page.transactions.map((x) => x.traceId));
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
  if (new Set(seen).size !== seen.length) throw new Error(`a transaction was listed twice: ${seen}`);
  return seen;
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const ids = (f: (m: (typeof made)[number]) => boolean) => sorted(made.filter(f).map((m) => m.traceId));

t.test("e-mail matches the whole address without regard to case, nothing else", async (t) => {
  t.same(
    sorted(await all({ email: `ANN.${run}@example.com` })),
    ids((m) => m.email.toLowerCase() === `ann.${run}@example.com`),
    "Ann in any case",
  );
  t.same(await all({ email: `ann.${run}@example` }), [], "a prefix is not a match");
  t.same(await all({ email: "nobody@example.com" }), [], "an unknown address: none");
});

t.test("card last four, type, frontend", async (t) => {
  t.same(
    sorted(await all({ cardLastFour: "4444" })),
    ids((m) => m.lastFour === "4444"),
    "cards ending 4444",
  );
  t.same(
    sorted(await all({ cardLastFour: "0002" })),
    ids((m) => m.lastFour === "0002"),
    "the declined card",
  );
  t.same(sorted(await all({ cardLastFour: "9999" })), [], "an ending nobody used");
  t.same(
    sorted(await all({ transactionType: TransactionType.PAYOUT })),
    ids((m) => m.type === "payout"),
    "payouts",
  );
  t.same(
    sorted(await all({ frontend: "test-eur" })),
    ids((m) => m.frontend === "test-eur"),
    "the EUR frontend",
  );
  t.same(
    sorted(await all({ email: `carl.${run}@example.com`, cardLastFour: "1111" })),
    ids((m) => m.email === `carl.${run}@example.com` && m.lastFour === "1111"),
    "filters combine",
  );
});

t.test("trace_id, processor transaction id and processor name the attempts they say", async (t) => {
  const listed = (await svc().client.listTransactions({ pin, pageSize: 50 })).transactions;
  t.same(
    sorted(listed.map((x) => x.traceId)),
    ids(() => true),
    "the pin lists every attempt made",
  );
  const withId = listed.find((x) => x.transactionId !== "");
  t.ok(withId, "an attempt with the processor's id");
  t.same(await all({ processorTransactionId: withId!.transactionId }), [withId!.traceId], "by the processor's id");
  t.same(await all({ processorTransactionId: "no-such-payment" }), [], "an unknown processor id: none");
  const target = made[3].traceId;
  t.same(await all({ traceId: target }), [target], "by trace_id");
  for (const processor of new Set(listed.map((x) => x.paymentProcessor))) {
    t.same(sorted(await all({ processor })), sorted(listed.filter((x) => x.paymentProcessor === processor).map((x) => x.traceId)), `processor ${processor}`);
  }
  t.same(await all({ processor: "no-such-processor" }), [], "a processor nobody used: none");
  t.same(
    sorted(await all({ status: TransactionStatus.APPROVED, cardLastFour: "1111" })),
    sorted(listed.filter((x) => x.status === TransactionStatus.APPROVED && x.card?.maskedNumber.endsWith("1111")).map((x) => x.traceId)),
    "status with last four",
  );
});

t.test("page tokens walk every page once, newest order first", async (t) => {
  for (const size of [1, 2, 3])
    t.same(
      sorted(await all({}, size)),
      ids(() => true),
      `pages of ${size}`,
    );
  const newestFirst = (await svc().client.listTransactions({ pin, pageSize: 50 })).transactions;
  const times = newestFirst.map((x) => Number(x.createTime?.seconds ?? 0n) * 1e9 + (x.createTime?.nanos ?? 0));
  t.same(
    times,
    [...times].sort((a, b) => b - a),
    "newest first",
  );
});

t.test("each malformed filter is INVALID_ARGUMENT naming its field", async (t) => {
  const cases: [Query, string][] = [
    [{ cardLastFour: "12a4" }, "card_last_four"],
    [{ cardLastFour: "12345" }, "card_last_four"],
    [{ traceId: -1 }, "trace_id"],
    [{ email: "a\u0000b" }, "email"],
    [{ processorTransactionId: "x\u0007" }, "processor_transaction_id"],
    [{ processor: "sim\u0000a" }, "processor"],
    [{ frontend: "f\u0001" }, "frontend"],
    [{ pageToken: Buffer.from(JSON.stringify({ v: 1, s: "2026-01-01", o: 1, a: 0 })).toString("base64url") }, "page_token"],
  ];
  for (const [q, field] of cases) {
    const r = await refusal(svc().client.listTransactions(q));
    t.equal(r.code, Code.InvalidArgument, `${field}: INVALID_ARGUMENT`);
    t.match(r.message, field, `the answer names ${field}`);
  }
});

t.test("stuck transactions: non-final attempts past the horizon, oldest first", async (t) => {
  const pending = await processSale(svc().edgeUrl, { pin, card_number: "4000000000000077" });
  const traceId = pending.body.trace_id as number;
  const listed = async (q: { olderThanSeconds?: number; merchantId?: string }) =>
    (await svc().admin.listStuckTransactions({ ...q, pageSize: 500 })).transactions.map((x) => x.traceId);
  t.notOk((await listed({})).includes(traceId), "a pending attempt made now is not stuck under the 15-minute default");
  // The attempt is made an hour old in the database: the service's clock is not moved, the row is.
  await svc().sql("update transaction set created_at = now() - interval '1 hour' where trace_id = $1 and status in ('pending', 'pending_async')", [traceId]);
  const stuck = await svc().admin.listStuckTransactions({ pageSize: 500 });
  const found = stuck.transactions.find((x) => x.traceId === traceId);
  if (found) {
    t.ok([TransactionStatus.PENDING, TransactionStatus.PENDING_ASYNC].includes(found.status), "listed while still pending");
    t.ok(!(await listed({ merchantId: "m-other" })).includes(traceId), "not under another merchant");
    t.ok(
      stuck.transactions.every((x) => [TransactionStatus.PENDING, TransactionStatus.PENDING_ASYNC, TransactionStatus.REQUESTED].includes(x.status)),
      "only open attempts",
    );
  } else {
    const now = await svc().client.getTransaction({ traceId });
    t.not(now.transaction?.status, TransactionStatus.PENDING, "not listed only because it became final meanwhile");
  }
  const r = await refusal(svc().admin.listStuckTransactions({ olderThanSeconds: -1 }));
  t.equal(r.code, Code.InvalidArgument, "a negative horizon is refused");
  t.match(r.message, "older_than_seconds");
});

t.test("failing deliveries: failed or refused, or retried min_attempts times", async (t) => {
  // Callbacks as the delivery worker leaves them for a platform that keeps failing, written here
  // (due in a day, so no worker sends them) instead of waiting a day of retries.
  const owe = async (traceId: number, state: string, attempts: number) =>
    (
      await svc().sql<{ id: string }>(
        `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, attempts, next_attempt_at)
         values (gen_random_uuid(), 'notification', 'm-test', $1, 'https://platform.example/notify', '{}', $2, $3, now() + interval '1 day')
         returning id::text as id`,
        [traceId, state, attempts],
      )
    )[0];
  const failed = await owe(made[0].traceId, "failed", 12);
  const retried = await owe(made[1].traceId, "pending", 4);
  const fresh = await owe(made[2].traceId, "pending", 1);
  const delivered = await owe(made[3].traceId, "delivered", 5);
  const failing = async (minAttempts: number) =>
    (await svc().admin.listFailingDeliveries({ merchantId: "m-test", minAttempts, pageSize: 500 })).deliveries.map((d) => String(d.id));
  const three = await failing(3);
  t.ok(three.includes(failed.id) && three.includes(retried.id), "the failed one and the one tried 4 times");
  t.notOk(three.includes(fresh.id), "not the one tried once");
  t.notOk(three.includes(delivered.id), "not one delivered, however many tries it took");
  t.ok((await failing(1)).includes(fresh.id), "with min_attempts 1, that one too");
  t.notOk(
    (await svc().admin.listFailingDeliveries({ merchantId: "m-other", pageSize: 500 })).deliveries.some((d) => String(d.id) === failed.id),
    "not another merchant's",
  );
  const r = await refusal(svc().admin.listFailingDeliveries({ minAttempts: -2 }));
  t.equal(r.code, Code.InvalidArgument);
  t.match(r.message, "min_attempts");
});

t.test("a filter no index serves: short pages with tokens, every match found, and the end reached", async (t) => {
  // 6,000 orders in SQL, half of them the big merchant's: more than one call's read of orders.
  await growFill(svc().engine.databaseUrl, 6000);
  const walk = async (q: Query) => {
    const found: number[] = [];
    let pages = 0;
    let pageToken = "";
    do {
      const page = await svc().client.listTransactions({ ...q, pageSize: 50, pageToken });
      found.push(...page.transactions.map((x) => x.traceId));
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken && pages < 1000);
    return { found, pages };
  };
  const nothing = await walk({ merchantId: BIG_MERCHANT, processor: "no-such-processor" });
  t.same(nothing.found, [], "a processor nobody uses matches nothing");
  t.ok(nothing.pages >= 2, `and the search says so in ${nothing.pages} calls, each reading a bounded number of orders`);
  const cancelled = await walk({ merchantId: BIG_MERCHANT, status: TransactionStatus.CANCELLED });
  const truth = await svc().sql<{ trace_id: number }>(
    "select t.trace_id from transaction t join payment_order o on o.id = t.order_ref where o.merchant_id = $1 and t.status = 'cancelled'",
    [BIG_MERCHANT],
  );
  t.ok(truth.length > 0, `the fill has cancelled attempts (${truth.length})`);
  t.same(sorted(cancelled.found), sorted(truth.map((r) => Number(r.trace_id))), "every cancelled attempt, once, over the pages");
  const deliveries: string[] = [];
  let pageToken = "";
  let pages = 0;
  do {
    const page = await svc().admin.listDeliveries({ merchantId: BIG_MERCHANT, kind: CallbackKind.VALIDATION, pageSize: 50, pageToken });
    deliveries.push(...page.deliveries.map((d) => String(d.id)));
    pageToken = page.nextPageToken;
    pages += 1;
  } while (pageToken && pages < 1000);
  t.same(deliveries, [], "no Validation callback among the filled ones");
  t.ok(pages >= 2, `deliveries by a kind nobody sent end after ${pages} calls, each reading a bounded number`);
});
