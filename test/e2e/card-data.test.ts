/**
 * CONTRACT section 8 after a real run: every test card through every path
 * (approved, declined, unavailable, 3-D Secure, pending, cascade, payout,
 * refund, refused requests, gRPC, every callback to a platform stub, the hosted
 * payment fields and their card tokens), then the
 * database's every text column, the logs, every reply and every callback are
 * scanned for the card numbers and CVVs; the full
 * number is kept only sealed, and only while an attempt may still need it.
 */
import t from "tap";
import { toJsonString } from "@bufbuild/protobuf";
import { ProcessResponseSchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { saleRequest } from "../support/engine-request.ts";
import { useService } from "../support/service.ts";
import { MERCHANTS } from "../support/merchants.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { PLATFORM_SECRETS, platformMerchants } from "../support/platform-merchants.ts";
import { orderId, post, processSale, saleBody, sign } from "../support/wire.ts";
import { until } from "../support/until.ts";
import { fieldsSessionBody, openFields, postJson, submitFields } from "../support/hosted-fields.ts";

const CARDS = [
  "4111111111111111",
  "5555555555554444",
  "4000000000000002",
  "4000000000009995",
  "4000000000000119",
  "4000000000003220",
  "4000000000000077",
  "4000000000000259",
  "4000000000000341",
];
// CVVs unlikely to occur by chance, matched as whole tokens.
const CVVS = ["7319", "846"];
const cvvPattern = new RegExp(`(^|[^0-9A-Za-z])(${CVVS.join("|")})([^0-9A-Za-z]|$)`);

const replies: string[] = [];
let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
});
t.teardown(() => stub.close());
// The standard merchants plus ones whose every callback goes to the stub.
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: { merchants: [...MERCHANTS.merchants, ...platformMerchants(stub.url).merchants] },
}));

function leaks(text: string): string[] {
  const found = CARDS.filter((c) => text.includes(c));
  const m = cvvPattern.exec(text);
  if (m) found.push(`cvv ${m[2]}`);
  return found;
}

const record = (r: { text: string }) => replies.push(r.text);

t.test("run every card through every path", async (t) => {
  for (const card of CARDS) {
    for (const cvv of CVVS) {
      const sale = await processSale(service().edgeUrl, { card_number: card, cvv });
      record(sale);
      if (sale.body.transaction_status === "approved") {
        record(
          await processSale(service().edgeUrl, { transaction_type: "refund", reference_id: String(sale.body.trace_id), amount: 100, card_number: card, cvv }),
        );
      }
    }
    record(await processSale(service().edgeUrl, { transaction_type: "payout", card_number: card, cvv: "" }));
    // A platform that puts a card number into the customer's free text: kept masked like every other free text.
    record(
      await processSale(service().edgeUrl, {
        card_number: CARDS[2],
        cvv: CVVS[1],
        first_name: card,
        last_name: `x ${card}`,
        address: `card ${card}`,
        city: card,
      }),
    );
    // Every callback: Validation, notifications, UpdatePayout, RecordFailedDeposit.
    const plat = { merchant_id: "m-plat", frontend: "plat-usd", notification_url: `${stub.url}/notify` };
    record(await processSale(service().edgeUrl, { ...plat, card_number: card, cvv: CVVS[0] }));
    record(await processSale(service().edgeUrl, { ...plat, transaction_type: "payout", card_number: card, cvv: "" }));
    const manual = await processSale(service().edgeUrl, {
      ...plat,
      merchant_id: "m-plat-manual",
      frontend: "manual-usd",
      transaction_type: "payout",
      card_number: card,
      cvv: "",
    });
    record(manual);
    await service().admin.approvePayout({ traceId: manual.body.trace_id, operator: "ops" });
    record(await processSale(service().edgeUrl, { merchant_id: "m-manual", frontend: "manual-usd", transaction_type: "payout", card_number: card }));
    // Refused requests must not echo the card either.
    record(await processSale(service().edgeUrl, { card_number: card, cvv: CVVS[0], card_exp: "01/2001", email: "bad" }));
    record(await post(service().edgeUrl, sign(saleBody({ card_number: card, cvv: CVVS[1] }), "wrong-secret")));
    record(await post(service().edgeUrl, sign(saleBody({ card_number: card, cvv: 7319 as unknown as string }))));
    const grpc = await service().client.process(
      saleRequest({ orderId: orderId("g"), amount: { amountMinor: 500n, currency: "USD" }, card: { number: card, cvv: CVVS[0], expiry: "12/2030" } }),
    );
    replies.push(toJsonString(ProcessResponseSchema, grpc));
  }
  t.ok(replies.length > 50, `${replies.length} replies recorded`);
});

t.test("every card through the hosted payment fields: typed into the fields page, paid with its card token", async (t) => {
  for (const card of CARDS) {
    // The fields page as a browser without scripts posts it; its answer (the taken card's page) is a reply too.
    const started = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({ merchant_id: "m-plat", frontend: "plat-usd", pin: "cust-42" }));
    record(started);
    const opened = await openFields(service().edgeUrl, started.body.redirect_url);
    const sent = await submitFields(service().edgeUrl, opened, { card_number: card, cvv: CVVS[0] });
    replies.push(sent.html);
    t.ok(sent.minted, `a token for ${card.slice(-4)}`);
    const tokenSale = () => {
      const {
        card_number: _n,
        cvv: _c,
        card_exp: _e,
        ...body
      } = saleBody({ merchant_id: "m-plat", frontend: "plat-usd", notification_url: `${stub.url}/notify` });
      return sign({ ...body, card_token: sent.minted?.card_token });
    };
    const paid = await post(service().edgeUrl, tokenSale());
    record(paid);
    t.equal(paid.http, 200, `the token's sale is processed (${paid.body.transaction_status})`);
    // Used again: refused, naming the token and never the card.
    record(await post(service().edgeUrl, tokenSale()));
  }
});

t.test("no callback carries a card number or a CVV, in its body or its headers", async (t) => {
  // Let the pending and cascade attempts finish and their callbacks go out: no attempt left
  // pending (a challenge waits in pending_async for a customer who never comes) and no callback owed.
  const quiet = await until(async () => {
    const [{ attempts, callbacks }] = await service().sql<{ attempts: number; callbacks: number }>(
      `select (select count(*)::int from transaction where status = 'pending') as attempts,
              (select count(*)::int from callback where state = 'pending') as callbacks`,
    );
    return attempts === 0 && callbacks === 0;
  }, 30_000);
  t.ok(quiet, "every pending attempt ended and every callback was answered");
  const calls = stub.received();
  const kinds = new Set(calls.map((c) => c.kind));
  t.same([...kinds].sort(), ["notification", "record_failed_deposit", "update_payout", "validation"], "every kind of callback was sent");
  t.ok(calls.length > 40, `${calls.length} callbacks received`);
  for (const c of calls) t.same(leaks(c.rawBody + JSON.stringify(c.headers)), [], `${c.kind} ${c.rawBody.slice(0, 80)}`);
  t.ok(
    calls.filter((c) => c.kind === "record_failed_deposit").every((c) => /^\d{6}\*+\d{4}$/.test((c.body as { CardNumber: string }).CardNumber)),
    "RecordFailedDeposit's CardNumber is masked",
  );
});

t.test("no operator answer carries a card number or a CVV", async (t) => {
  const asJson = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x));
  const listed = await service().client.listTransactions({ pageSize: 500 });
  t.ok(listed.transactions.length > 50, `${listed.transactions.length} transactions listed`);
  t.same(leaks(asJson(listed)), [], "ListTransactions");
  for (const tx of listed.transactions.slice(0, 60)) {
    t.same(leaks(asJson(await service().client.getTransaction({ traceId: tx.traceId }))), [], `GetTransaction ${tx.traceId}`);
  }
  t.same(leaks(asJson(await service().admin.listDeliveries({ pageSize: 500 }))), [], "ListDeliveries");
});

t.test("no reply carries a card number or a CVV", async (t) => {
  for (const text of replies) t.same(leaks(text), [], text.slice(0, 120));
});

t.test("no text column of any table carries a card number or a CVV", async (t) => {
  const columns = await service().sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`,
  );
  t.ok(columns.length > 10, `${columns.length} text columns`);
  let scanned = 0;
  for (const { table_name, column_name } of columns) {
    const rows = await service().sql<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
    scanned += rows.length;
    const bad = rows.flatMap((r) => leaks(r.v));
    t.same(bad, [], `${table_name}.${column_name}`);
  }
  t.ok(scanned > 100, `${scanned} values scanned`);
});

t.test("the logs carry no card number or CVV", async (t) => {
  const logs = service().logs();
  t.ok(logs.length > 0, "logs were written");
  t.same(leaks(logs), []);
});

t.test("the full number is kept sealed only while an attempt may need it", async (t) => {
  const rows = await service().sql<{ status: string; card_sealed: string | null; card_masked: string; type: string }>(
    `select t.status, o.card_sealed, o.card_masked, o.type from payment_order o
     join transaction t on t.order_ref = o.id and t.attempt = (select max(attempt) from transaction where order_ref = o.id)`,
  );
  const waiting = rows.filter((r) => ["pending", "pending_async", "declined_retry"].includes(r.status) && r.type === "sale");
  const final = rows.filter((r) => ["approved", "declined", "cancelled"].includes(r.status));
  t.ok(waiting.length > 0 && final.length > 0);
  for (const r of waiting) t.match(r.card_sealed, /^v1\./, `${r.status} keeps the number sealed`);
  for (const r of final) t.equal(r.card_sealed, null, `${r.status} keeps no number`);
  for (const r of rows) t.match(r.card_masked, /^\d{6}\*+\d{4}$/);
});
