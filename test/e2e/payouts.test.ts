/**
 * Payouts end to end: auto approval walks A -> P -> Y (J on a declining card),
 * manual ones wait in requested for an operator's decision through
 * cashier.admin.v1, and each letter the merchant chose goes out as an
 * UpdatePayout, in order, PascalCase, header-signed, money with its decimals.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { CallbackKind, CallbackState } from "../../gen/cashier/engine/v1/callback_pb.js";
import { PayoutLetter, TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import type { ReceivedCall } from "../support/platform-stub.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { until } from "../support/until.ts";
import { owedCallbacks, settledCallbacks } from "../support/settled.ts";
import { orderId, processSale } from "../support/wire.ts";

const { svc, stub } = usePlatformService(t, { CASHIER_CALLBACK_RETRY_SECONDS: "1,1" });

const body = (c: ReceivedCall) => c.body as Record<string, any>;
const ofOrder = (oid: string) => (c: ReceivedCall) => body(c)?.ExtPayoutID === oid || body(c)?.order_id === oid;
const letters = (oid: string) =>
  stub()
    .received("update_payout")
    .filter(ofOrder(oid))
    .map((c) => body(c).Status);

async function payout(merchant: string, frontend: string, over: Record<string, unknown> = {}) {
  const oid = orderId("po");
  const r = await processSale(svc().edgeUrl, {
    merchant_id: merchant,
    frontend,
    order_id: oid,
    transaction_type: "payout",
    cvv: undefined,
    amount: 2500,
    notification_url: `${stub().url}/notify`,
    ...over,
  });
  return { oid, r };
}

async function rpcCode(p: Promise<unknown>): Promise<Code | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

t.test("auto: A, P, Y go out as UpdatePayout in order, exactly as seed 2.5 writes them", async (t) => {
  const { oid, r } = await payout("m-plat-quiet", "quiet-usd", { amount: 2500 });
  t.equal(r.body.transaction_status, "approved");
  const calls = await stub().waitFor("update_payout", ofOrder(oid), { count: 3 });
  t.same(
    calls.map((c) => body(c).Status),
    ["A", "P", "Y"],
    "in the order they happened",
  );
  for (const c of calls) t.ok(c.signatureValid, `Status ${body(c).Status}: X-Cashier-Signature verifies`);
  t.equal(new Set(calls.map((c) => c.eventId)).size, 3, "one event id per letter");
  const y = calls[2];
  t.match(y.rawBody, /"Amount":25\.00[,}]/, "Amount written with its two decimals");
  t.same(
    Object.keys(body(y)),
    ["PIN", "FrontEndName", "TraceID", "ExtPayoutID", "Status", "PP", "TransactionID", "UpdatedBy", "Amount", "Currency", "Fee"],
    "no SiteID when the merchant has none",
  );
  t.match(body(y), {
    PIN: "cust-42",
    FrontEndName: "quiet-usd",
    TraceID: r.body.trace_id,
    ExtPayoutID: oid,
    PP: "sim-a",
    TransactionID: r.body.transaction_id,
    UpdatedBy: "system",
    Currency: "USD",
  });
  t.equal(body(calls[0]).TransactionID, "", "no processor id before the processor is called");
  t.notMatch(y.rawBody, /4111111111111111/);
  // Every UpdatePayout recorded as answered: the payout's life is over, and what it owed is in the outbox.
  await settledCallbacks(svc().client, r.body.trace_id, CallbackKind.UPDATE_PAYOUT);
  t.same(await owedCallbacks(svc().client, r.body.trace_id, CallbackKind.NOTIFICATION), [], "no notification is owed");
  t.equal(stub().received("notification").filter(ofOrder(oid)).length, 0, "the reply already told the result: no notification");
});

t.test("auto on a declining card: A, P, J; only the letters the merchant chose are sent", async (t) => {
  const { oid, r } = await payout("m-plat-quiet", "quiet-usd", { card_number: "4000000000000002" });
  t.equal(r.body.transaction_status, "declined");
  await stub().waitFor("update_payout", ofOrder(oid), { count: 3 });
  t.same(letters(oid), ["A", "P", "J"]);

  const yj = await payout("m-plat-yj", "yj-usd");
  await stub().waitFor("update_payout", ofOrder(yj.oid));
  const owed = await settledCallbacks(svc().client, yj.r.body.trace_id, CallbackKind.UPDATE_PAYOUT);
  t.equal(owed.length, 1, "one UpdatePayout owed, and it was answered");
  t.same(letters(yj.oid), ["Y"], "update_payout_statuses YJ: only Y");

  // "" : a platform that never built the deprecated UpdatePayout is sent none, its payout's life all the same.
  const none = await payout("m-plat-no-up", "no-up-usd");
  t.equal(none.r.body.transaction_status, "approved");
  const seen = await svc().client.getTransaction({ traceId: none.r.body.trace_id });
  t.same(
    seen.callbacks.filter((c) => c.kind === CallbackKind.UPDATE_PAYOUT),
    [],
    "no UpdatePayout recorded, for any letter",
  );
  t.ok((seen.transaction?.history.length ?? 0) >= 3, "the letters were walked all the same");
  t.equal(stub().received("update_payout").filter(ofOrder(none.oid)).length, 0, "and none reached the platform");
  t.equal(body(stub().received("update_payout").filter(ofOrder(yj.oid))[0]).SiteID, 7);
});

t.test("a payout to the card every processor declines (4000000000000341) ends declined: A, P, J, code 91", async (t) => {
  const { oid, r } = await payout("m-plat-quiet", "quiet-usd", { card_number: "4000000000000341" });
  t.equal(r.body.transaction_status, "declined", "no cascade for a payout: its one attempt ends declined");
  t.equal(r.body.error_details, "91 Issuer unavailable, try another route");
  await stub().waitFor("update_payout", ofOrder(oid), { count: 3 });
  t.same(letters(oid), ["A", "P", "J"]);
});

t.test("manual: waits in requested; an operator approves: A, P, Y, notified, UpdatedBy the operator", async (t) => {
  const { oid, r } = await payout("m-plat-manual", "manual-usd");
  t.equal(r.body.transaction_status, "requested");
  t.equal(r.body.transaction_id, "");
  // What a state owes is written with it: an empty outbox for the payout means nothing goes out while it waits.
  t.same(await owedCallbacks(svc().client, r.body.trace_id, CallbackKind.UPDATE_PAYOUT), [], "no UpdatePayout is owed in requested");
  t.same(letters(oid), [], "nothing is sent while it waits (requested has no letter)");
  const [{ sealed }] = await svc().sql<{ sealed: boolean }>(`select card_sealed is not null as sealed from payment_order where order_id = $1`, [oid]);
  t.ok(sealed, "the card is kept sealed for the operator's approval");

  const approved = await svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "alice" });
  t.equal(approved.transaction?.status, TransactionStatus.APPROVED);
  t.equal(approved.transaction?.payoutLetter, PayoutLetter.APPROVED);
  const calls = await stub().waitFor("update_payout", ofOrder(oid), { count: 3 });
  t.same(
    calls.map((c) => body(c).Status),
    ["A", "P", "Y"],
  );
  t.same(
    calls.map((c) => body(c).UpdatedBy),
    ["operator:alice", "operator:alice", "operator:alice"],
  );
  const notes = await stub().waitFor("notification", (c) => ofOrder(oid)(c) && body(c).transaction_status === "approved");
  t.ok(notes[0].signatureValid, "the decision is notified, signed");
  const [{ after }] = await svc().sql<{ after: boolean }>(`select card_sealed is null as after from payment_order where order_id = $1`, [oid]);
  t.ok(after, "the card is dropped once the processor answered");
  const got = await svc().client.getTransaction({ traceId: r.body.trace_id });
  t.same(
    got.transaction?.history.map((h) => [h.toStatus, h.payoutLetter]),
    [
      [TransactionStatus.REQUESTED, PayoutLetter.UNSPECIFIED],
      [TransactionStatus.PENDING, PayoutLetter.AUTHORIZED],
      [TransactionStatus.PENDING, PayoutLetter.IN_PROGRESS],
      [TransactionStatus.APPROVED, PayoutLetter.APPROVED],
    ],
  );
  t.match(got.transaction?.history[1].cause, /operator:approve:alice/);

  t.equal(await rpcCode(svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "bob" })), Code.FailedPrecondition, "a second approval is refused");
  t.equal(
    await rpcCode(svc().admin.cancelPayout({ traceId: r.body.trace_id, operator: "bob" })),
    Code.FailedPrecondition,
    "an approved payout cannot be cancelled",
  );
});

t.test("manual: reject is J, cancel is C, both with 9007 and the reason; both tell the platform to release funds", async (t) => {
  const rej = await payout("m-plat-manual", "manual-usd");
  const rejected = await svc().admin.rejectPayout({ traceId: rej.r.body.trace_id, operator: "carol", reason: "KYC not complete" });
  t.equal(rejected.transaction?.status, TransactionStatus.DECLINED);
  t.equal(rejected.transaction?.payoutLetter, PayoutLetter.REJECTED);
  t.equal(rejected.transaction?.errorCode, 9007);
  t.equal(rejected.transaction?.errorDetails, "KYC not complete");
  await stub().waitFor("update_payout", ofOrder(rej.oid));
  t.same(letters(rej.oid), ["J"]);

  const can = await payout("m-plat-manual", "manual-usd");
  const cancelled = await svc().admin.cancelPayout({ traceId: can.r.body.trace_id, operator: "carol", reason: "customer asked" });
  t.equal(cancelled.transaction?.status, TransactionStatus.CANCELLED);
  t.equal(cancelled.transaction?.payoutLetter, PayoutLetter.CANCELLED);
  const [c] = await stub().waitFor("update_payout", ofOrder(can.oid));
  t.match(body(c), { Status: "C", UpdatedBy: "operator:carol" });
  const [n] = await stub().waitFor("notification", (x) => ofOrder(can.oid)(x));
  t.match(body(n), { transaction_status: "cancelled", error_code: 9007, error_details: "customer asked", transaction_type: "payout" });
  const [{ gone }] = await svc().sql<{ gone: boolean }>(`select card_sealed is null as gone from payment_order where order_id = $1`, [can.oid]);
  t.ok(gone, "a cancelled payout keeps no card");
});

t.test("a card number typed into an operator's reason is masked in the payout, its notification and the deliveries' log", async (t) => {
  const rej = await payout("m-plat-manual", "manual-usd");
  const rejected = await svc().admin.rejectPayout({ traceId: rej.r.body.trace_id, operator: "carol", reason: "customer card 4000 0000 0000 0077 blocked" });
  t.equal(rejected.transaction?.errorDetails, "customer card 4000 00** **** 0077 blocked");
  const [n] = await stub().waitFor("notification", (x) => ofOrder(rej.oid)(x));
  t.equal(body(n).error_details, "customer card 4000 00** **** 0077 blocked");
  const deliveries = await svc().admin.listDeliveries({ traceId: rej.r.body.trace_id });
  t.ok(deliveries.deliveries.length > 0);
  const seen = [JSON.stringify(body(n)), ...deliveries.deliveries.map((c) => c.body), rejected.transaction?.errorDetails ?? ""].join("\n");
  t.notMatch(seen.replace(/[ -]/g, ""), /4000000000000077/, "the full number is nowhere");
  const rows = await svc().sql<{ n: number }>("select count(*)::int as n from transaction where error_details ~ '4000 ?0000 ?0000 ?0077'");
  t.equal(rows[0].n, 0, "nor stored");
});

t.test("payout decisions refuse what is not a waiting payout, naming the cause", async (t) => {
  const sale = await processSale(svc().edgeUrl, { merchant_id: "m-plat-quiet", frontend: "quiet-usd" });
  t.equal(await rpcCode(svc().admin.approvePayout({ traceId: sale.body.trace_id, operator: "x" })), Code.NotFound, "a sale is not a payout");
  t.equal(await rpcCode(svc().admin.approvePayout({ traceId: 2_000_000_000, operator: "x" })), Code.NotFound);
  t.equal(await rpcCode(svc().admin.approvePayout({ traceId: 0, operator: "x" })), Code.InvalidArgument);
  t.equal(await rpcCode(svc().admin.rejectPayout({ traceId: sale.body.trace_id, operator: "x\u0000y" })), Code.InvalidArgument);
  const auto = await payout("m-plat-quiet", "quiet-usd");
  t.equal(
    await rpcCode(svc().admin.rejectPayout({ traceId: auto.r.body.trace_id, operator: "x" })),
    Code.FailedPrecondition,
    "an approved payout cannot be rejected",
  );
});

t.test("a payout whose Validation is still under way is no operator's yet: every decision is refused and nothing is sent early", async (t) => {
  stub().script("validation", { delayMs: 2000 });
  const oid = orderId("po-val");
  const call = payout("m-plat", "plat-usd", { order_id: oid });
  const traceId = await until(async () => {
    const [row] = await svc().sql<{ trace_id: string }>(
      "select t.trace_id from transaction t join payment_order o on o.id = t.order_ref where o.merchant_id = 'm-plat' and o.order_id = $1",
      [oid],
    );
    return row ? Number(row.trace_id) : undefined;
  });
  t.ok(traceId, "the payout exists in requested while its Validation waits");
  for (const [name, decide] of [
    ["approve", svc().admin.approvePayout],
    ["reject", svc().admin.rejectPayout],
    ["cancel", svc().admin.cancelPayout],
  ] as const) {
    try {
      await decide({ traceId: traceId!, operator: "alice", reason: "too early" });
      t.fail(`${name} was taken during Validation`);
    } catch (err) {
      const e = ConnectError.from(err);
      t.equal(e.code, Code.FailedPrecondition, `${name}: refused`);
      t.match(e.rawMessage, /not waiting for a decision yet: its Process call is still under way/, `${name}: says why`);
    }
  }
  const { r } = await call;
  t.equal(r.body.transaction_status, "approved", "the call goes on as if no operator had tried: auto approval, Y");
  t.same(letters(oid), ["A", "P", "Y"].slice(0, letters(oid).length), "UpdatePayout only from the call's own steps");
  t.notOk(
    stub()
      .received("notification")
      .some((c) => ofOrder(oid)(c) && body(c).transaction_status !== "approved"),
    "no operator's state reached the platform",
  );
});

t.test("a payout the processor has (P) is the processor's to end: an operator's reject or cancel is refused, and it ends as the processor says", async (t) => {
  // The pending card: the processor takes the payout and approves it a few seconds later.
  const { r } = await payout("m-plat-manual", "manual-usd", { card_number: "4000000000000077" });
  const approved = await svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "alice" });
  t.same([approved.transaction?.status, approved.transaction?.payoutLetter], [TransactionStatus.PENDING, PayoutLetter.IN_PROGRESS], "at P: sent");
  for (const decide of [svc().admin.rejectPayout, svc().admin.cancelPayout]) {
    try {
      await decide({ traceId: r.body.trace_id, operator: "alice", reason: "changed my mind" });
      t.fail("a decision on a payout at P was taken");
    } catch (err) {
      const e = ConnectError.from(err);
      t.equal(e.code, Code.FailedPrecondition);
      t.match(e.rawMessage, /the payout is pending \(P\): it cannot be (rejected|cancelled)/);
    }
  }
  const ended = await until(async () => {
    const got = await svc().client.getTransaction({ traceId: r.body.trace_id });
    return got.transaction?.status === TransactionStatus.PENDING ? undefined : got.transaction;
  }, 20_000);
  t.same([ended?.status, ended?.payoutLetter], [TransactionStatus.APPROVED, PayoutLetter.APPROVED], "the processor's approval is what the payout ends with");
});

t.test("operators list deliveries by merchant, kind and outcome, and redeliver one", async (t) => {
  const { oid } = await payout("m-plat-yj", "yj-usd");
  await stub().waitFor("update_payout", ofOrder(oid));
  const page = await until(async () => {
    const listed = await svc().admin.listDeliveries({ merchantId: "m-plat-yj", kind: CallbackKind.UPDATE_PAYOUT, state: CallbackState.DELIVERED });
    return listed.deliveries.some((d) => d.body.includes(oid)) && listed;
  }, 3000);
  const mine = page!.deliveries.find((d) => d.body.includes(oid))!;
  t.ok(mine, "the delivered UpdatePayout is listed");
  t.ok(
    page!.deliveries.every((d) => d.merchantId === "m-plat-yj" && d.kind === CallbackKind.UPDATE_PAYOUT && d.state === CallbackState.DELIVERED),
    "filters hold",
  );
  t.equal(mine.attempts.length, 1);
  t.equal(mine.attempts[0].httpStatus, 200);
  t.match(mine.attempts[0].responseBody, /"status":0/);
  const none = await svc().admin.listDeliveries({ merchantId: "m-plat-yj", state: CallbackState.FAILED });
  t.same(none.deliveries, [], "nothing failed");
  const paged = await svc().admin.listDeliveries({ pageSize: 1 });
  t.equal(paged.deliveries.length, 1);
  t.not(paged.nextPageToken, "", "a next page token");
  const next = await svc().admin.listDeliveries({ pageSize: 1, pageToken: paged.nextPageToken });
  t.ok(next.deliveries[0].id < paged.deliveries[0].id, "the next page goes on, newest first");
  t.equal(await rpcCode(svc().admin.listDeliveries({ pageToken: "nope" })), Code.InvalidArgument);
  t.equal(await rpcCode(svc().admin.listDeliveries({ pageSize: -1 })), Code.InvalidArgument);
  t.ok((await svc().admin.listDeliveries({ pageSize: 501 })).deliveries.length <= 500, "a page_size above 500 reads 500");

  const again = await svc().admin.redeliverCallback({ id: mine.id });
  t.equal(again.delivery?.state, CallbackState.PENDING);
  const calls = await stub().waitFor("update_payout", ofOrder(oid), { count: 2 });
  t.equal(calls[1].eventId, calls[0].eventId, "redelivered with the same X-Cashier-Event-Id");
  t.equal(await rpcCode(svc().admin.redeliverCallback({ id: 999_999_999n })), Code.NotFound);
});

t.test("two operators approving at once: one approval, the other told the payout changed", async (t) => {
  const { r } = await payout("m-plat-manual", "manual-usd");
  const answers = await Promise.allSettled([
    svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "alice" }),
    svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "bob" }),
  ]);
  t.equal(answers.filter((a) => a.status === "fulfilled").length, 1, "exactly one succeeds");
  const lost = answers.find((a) => a.status === "rejected") as PromiseRejectedResult;
  t.equal(ConnectError.from(lost.reason).code, Code.FailedPrecondition);
  const got = await svc().client.getTransaction({ traceId: r.body.trace_id });
  t.equal(got.transaction?.status, TransactionStatus.APPROVED);
  t.equal(got.transaction?.history.length, 4, "requested, A, P, Y: each once");
});

t.test("UpdatePayout: an HTTP 500 is retried even when its body has a status member", async (t) => {
  // Whichever UpdatePayout comes next gets the 500 (a late one of an earlier test may): it must come again.
  const since = stub().received("update_payout").length;
  stub().script("update_payout", { httpStatus: 500, status: 500, description: "Internal Server Error" });
  await payout("m-plat-yj", "yj-usd");
  const again = await until(async () => {
    const ids = stub()
      .received("update_payout")
      .slice(since)
      .map((c) => c.eventId);
    return ids.find((id, j) => id !== null && ids.indexOf(id) !== j) ?? undefined;
  }, 10_000);
  t.ok(again, "the call answered 500 was sent again, with the same event id");
  const first = stub()
    .received("update_payout")
    .slice(since)
    .find((c) => c.eventId === again);
  t.equal(first?.reply.httpStatus, 500);
});

t.test("manual approval on a declining card ends J; without update_payout_url UpdatePayout goes to {platform_url}/UpdatePayout", async (t) => {
  const { oid, r } = await payout("m-plat-manual", "manual-usd", { card_number: "4000000000000002" });
  const approved = await svc().admin.approvePayout({ traceId: r.body.trace_id, operator: "dora" });
  t.equal(approved.transaction?.payoutLetter, PayoutLetter.REJECTED, "the processor declined: J");
  const calls = await stub().waitFor("update_payout", ofOrder(oid), { count: 3 });
  t.same(
    calls.map((c) => [body(c).Status, body(c).UpdatedBy]),
    [
      ["A", "operator:dora"],
      ["P", "operator:dora"],
      ["J", "operator:dora"],
    ],
  );

  const fallback = await payout("m-plat-fallback", "fallback-usd");
  const [y] = await stub().waitFor("update_payout", (c) => ofOrder(fallback.oid)(c) && body(c).Status === "Y");
  t.equal(y.path, "/UpdatePayout", "{platform_url}/UpdatePayout");
  t.ok(y.signatureValid);
});
