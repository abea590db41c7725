/**
 * ListTransactions as an operator uses it, over real gRPC: every filter
 * (merchant, order_id, pin, type, status, time range), the page size limit,
 * opaque page tokens, and a stable order while new transactions keep arriving:
 * paging newest-first never repeats a transaction and never skips one that
 * existed when paging began.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const svc = useService(t);

async function code(p: Promise<unknown>): Promise<Code | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

t.test("each filter narrows to what it names", async (t) => {
  const pin = `pin-${Date.now()}`;
  const start = new Date(Date.now() - 1000);
  const oid = orderId("lt");
  const sale = await processSale(svc().edgeUrl, { pin, order_id: oid });
  const declined = await processSale(svc().edgeUrl, { pin, card_number: "4000000000000002" });
  const payout = await processSale(svc().edgeUrl, { pin, transaction_type: "payout", cvv: undefined });
  await processSale(svc().edgeUrl, { pin, merchant_id: "m-single", frontend: "single-usd" });
  const ids = async (q: Parameters<ReturnType<typeof svc>["client"]["listTransactions"]>[0]) =>
    (await svc().client.listTransactions({ pin, ...q })).transactions.map((x) => x.traceId);
  t.equal((await ids({})).length, 4, "by pin");
  t.same(await ids({ merchantId: "m-test", orderId: oid }), [sale.body.trace_id], "by merchant and order_id");
  t.same(await ids({ transactionType: TransactionType.PAYOUT }), [payout.body.trace_id], "by type");
  t.same(await ids({ status: TransactionStatus.DECLINED }), [declined.body.trace_id], "by status");
  t.equal((await ids({ merchantId: "m-single" })).length, 1, "by merchant");
  t.equal((await ids({ startTime: timestampFromDate(start), endTime: timestampFromDate(new Date(Date.now() + 1000)) })).length, 4, "inside the time range");
  t.same(await ids({ endTime: timestampFromDate(start) }), [], "before the range: none");
  t.equal((await svc().client.listTransactions({ pin, pageSize: 100_000 })).transactions.length, 4, "a page_size above 500 is read as 500");
  t.equal(await code(svc().client.listTransactions({ pageSize: -1 })), Code.InvalidArgument, "a negative page_size is refused");
  const first = await svc().client.listTransactions({ pin, pageSize: 1 });
  t.ok(first.nextPageToken, "a first page of one");
  t.equal((await svc().client.listTransactions({ pin, pageSize: 1, pageToken: first.nextPageToken })).transactions.length, 1, "its token, same filters");
  t.equal(
    await code(svc().client.listTransactions({ pin, status: TransactionStatus.DECLINED, pageSize: 1, pageToken: first.nextPageToken })),
    Code.InvalidArgument,
    "its token with other filters is refused",
  );
  t.equal(await code(svc().client.listTransactions({ pageToken: "not-a-token" })), Code.InvalidArgument);
  t.equal(await code(svc().client.listTransactions({ orderId: "a\u0000b" })), Code.InvalidArgument);
});

t.test("paging while transactions keep arriving: no repeats, nothing that existed is skipped", async (t) => {
  const pin = `page-${Date.now()}`;
  const before: number[] = [];
  for (let i = 0; i < 30; i++) before.push((await processSale(svc().edgeUrl, { pin })).body.trace_id);
  let inserting = true;
  const writer = (async () => {
    let n = 0;
    while (inserting && n < 200) {
      await Promise.all([processSale(svc().edgeUrl, { pin }), processSale(svc().edgeUrl, { pin })]);
      n += 2;
    }
  })();
  const seen: number[] = [];
  const times: number[] = [];
  let pageToken = "";
  do {
    const page = await svc().client.listTransactions({ pin, pageSize: 4, pageToken });
    seen.push(...page.transactions.map((x) => x.traceId));
    times.push(...page.transactions.map((x) => Number(x.createTime?.seconds ?? 0n) * 1e9 + (x.createTime?.nanos ?? 0)));
    pageToken = page.nextPageToken;
    // Pacing, not a wait for an event: the writer gets room to insert between two pages.
    await new Promise((res) => setTimeout(res, 20));
  } while (pageToken);
  inserting = false;
  await writer;
  t.equal(new Set(seen).size, seen.length, "no transaction twice");
  t.same(
    times,
    [...times].sort((a, b) => b - a),
    "newest order first, by the time it was created",
  );
  t.ok(
    before.every((id) => seen.includes(id)),
    "every transaction that existed when paging began is listed",
  );
});
