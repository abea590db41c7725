/**
 * The hosted Cashier's engine against the running service (engine and edge,
 * real Postgres, the acquirer simulator, a real platform stub), as the pages
 * drive it over gRPC: autologin once, its replay and expiry (the clock moved);
 * deposits approved, declined, pending, 3-D Secure and cascaded, with
 * Validation carrying the session's auth_token and created_by customer,
 * notifications to the session's notification_url and RecordFailedDeposit
 * echoing SCOrderID/Udef1/Udef2 with CreatedBy customer; saved cards kept,
 * used with a fresh CVV, deleted with their sealed number; withdrawals under
 * the closed-loop rule on and off, limits and balance, the cancel switch with
 * UpdatePayout UpdatedBy customer. Then the card-data scan over the new
 * tables, the callbacks and the logs.
 */
import { randomBytes } from "node:crypto";
import t from "tap";
import { Code } from "@connectrpc/connect";
import { ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import type { NewCard } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { NewCardSchema } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { SECRET } from "../support/merchants.ts";
import { movableClock } from "../support/clock.ts";
import { startPlatformStub, type PlatformStub, type ReceivedCall } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { until } from "../support/until.ts";
import { orderId } from "../support/wire.ts";
import { autologinOf, cashierClient, postSession, sessionBody, withdrawalBody, type CashierClient } from "../support/cashier-session.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
});
t.teardown(() => stub.close());

function merchants(stubUrl: string) {
  const common = {
    secret: SECRET,
    site_id: 9,
    platform_url: stubUrl,
    update_payout_url: `${stubUrl}/api/UpdatePayout`,
    validation_url: `${stubUrl}/api/validation`,
  };
  return {
    merchants: [
      {
        ...common,
        merchant_id: "m-cash",
        frontends: [
          { name: "cash-usd", base_currency: "USD", limits: { USD: { deposit_min: 500, deposit_max: 100_000, withdrawal_max: 50_000 } } },
          { name: "open-usd", base_currency: "USD", closed_loop_withdrawals: false, save_cards: false },
          { name: "framed-usd", base_currency: "USD", allowed_origins: ["https://shop.example"] },
          { name: "presets-usd", base_currency: "USD", deposit_presets: [1000, 2500, 5000] },
          // Limits that leave one of the presets inside: 20.00 to 40.00 USD.
          { name: "narrow-usd", base_currency: "USD", deposit_presets: [1000, 2500, 5000], limits: { USD: { deposit_min: 2000, deposit_max: 4000 } } },
        ],
      },
      {
        ...common,
        merchant_id: "m-cash-manual",
        payout_approval: "manual",
        frontends: [
          { name: "cancel-usd", base_currency: "USD", player_cancel_withdrawal: true, closed_loop_withdrawals: false },
          { name: "nocancel-usd", base_currency: "USD", closed_loop_withdrawals: false },
        ],
      },
    ],
  };
}

const TTL = 300;
const service = useService(
  t,
  { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100", CASHIER_SESSION_TTL_SECONDS: String(TTL), CASHIER_RFD_RESEND_SECONDS: "1" },
  () => ({ merchants: merchants(stub.url), now: clock.now }),
);
let cashier: CashierClient;
t.before(() => {
  cashier = cashierClient(service().engineUrl);
});

const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
const body = (c: ReceivedCall) => c.body as Record<string, any>;
let customer = 0;
/** Every session's bearer token and autologin token handed out here: no table may hold one (they are kept as hashes). */
const tokens: string[] = [];

/** Starts a session over HTTP and redeems its autologin: the browser session's token and the reply. */
async function opened(over: Record<string, unknown> = {}, withdrawal = false) {
  const b = (withdrawal ? withdrawalBody : sessionBody)({
    merchant_id: "m-cash",
    frontend: "cash-usd",
    timestamp: nowSeconds(),
    sc_order_id: orderId("sc"),
    ...over,
  });
  const r = await postSession(service().edgeUrl, b);
  if (r.http !== 200) throw new Error(`session start: ${r.text}`);
  const redeemed = await cashier.redeemAutologin({ autologinToken: autologinOf(r.body.redirect_url), requesterIp: "203.0.113.9" });
  tokens.push(redeemed.sessionToken, autologinOf(r.body.redirect_url));
  return { token: redeemed.sessionToken, reply: r.body, redeemed, body: b };
}

const newCard = (number: string, over: Partial<MessageInitShape<typeof NewCardSchema>> = {}): { case: "newCard"; value: NewCard } =>
  ({ case: "newCard", value: { card: { number, cvv: "123", expiry: "12/2031" }, holder: "Jane Doe", save: false, ...over } }) as never;

const usd = (amountMinor: number) => ({ amountMinor: BigInt(amountMinor), currency: "USD" });

/** A fresh rendering's one-time submission key, as the deposit page makes one. */
const formKey = () => randomBytes(16).toString("base64url");

const deposit = (token: string, number: string, amount = 1500, over: Record<string, unknown> = {}) =>
  cashier.submitDeposit({
    sessionToken: token,
    amount: usd(amount),
    source: newCard(number),
    returnUrl: `/cashier/s/${token}/return`,
    submissionKey: formKey(),
    ...over,
  });

t.test("presets outside the currency's deposit limits are not offered", async (t) => {
  const wide = await opened({ frontend: "presets-usd" });
  t.same(wide.redeemed.session?.frontendSettings?.depositPresetsMinor, [1000n, 2500n, 5000n], "no limits: all three");
  const narrow = await opened({ frontend: "narrow-usd" });
  t.same(narrow.redeemed.session?.frontendSettings?.depositPresetsMinor, [2500n], "only 25.00 inside 20.00 to 40.00 USD");
});

t.test("the autologin opens the session once; a replay, a second concurrent use and a late one reveal nothing", async (t) => {
  const b = sessionBody({ merchant_id: "m-cash", frontend: "cash-usd", timestamp: nowSeconds(), amount: 2000 });
  const r = await postSession(service().edgeUrl, b);
  const autologinToken = autologinOf(r.body.redirect_url);
  const [a, c] = await Promise.allSettled([cashier.redeemAutologin({ autologinToken }), cashier.redeemAutologin({ autologinToken })]);
  t.equal([a, c].filter((x) => x.status === "fulfilled").length, 1, "two concurrent redemptions: one wins");
  const won = (a.status === "fulfilled" ? a : c) as PromiseFulfilledResult<Awaited<ReturnType<CashierClient["redeemAutologin"]>>>;
  t.match(won.value.sessionToken, /^[A-Za-z0-9_-]{43}$/);
  const s = won.value.session!;
  t.same([s.merchantId, s.frontend, s.currency, s.amount?.amountMinor, s.customerName], ["m-cash", "cash-usd", "USD", 2000n, "Jane Doe"]);
  t.equal(Number(s.expireTime!.seconds), r.body.expires_at, "the browser session ends with the session");
  t.same([s.frontendSettings!.depositMinMinor, s.frontendSettings!.depositMaxMinor], [500n, 100_000n]);
  const again = await refusal(cashier.redeemAutologin({ autologinToken }));
  t.same([again.code, again.reason], [Code.FailedPrecondition, ErrorReason.AUTOLOGIN_UNUSABLE], "opened twice: unusable");
  const unknown = await refusal(cashier.redeemAutologin({ autologinToken: "x".repeat(43) }));
  t.equal(unknown.message, again.message, "an unknown token gets the very same words");
  const view = await cashier.getCashierSession({ sessionToken: won.value.sessionToken });
  t.equal(view.session!.merchantId, "m-cash");
});

t.test("a frame the frontend does not allow is refused and leaves the autologin unused", async (t) => {
  let n = 0;
  const start = async (frontend: string) => {
    n += 1;
    const reply = await postSession(service().edgeUrl, sessionBody({ merchant_id: "m-cash", frontend, pin: `framed-${n}`, timestamp: nowSeconds() }));
    const token = autologinOf(reply.body.redirect_url);
    tokens.push(token);
    return token;
  };
  const framed = (autologinToken: string, framingOrigin = "") => refusal(cashier.redeemAutologin({ autologinToken, framed: true, framingOrigin }));

  const unlisted = await start("cash-usd");
  const none = await framed(unlisted);
  t.same([none.code, none.reason], [Code.FailedPrecondition, ErrorReason.NOT_ALLOWED_BY_FRONTEND], "no allowed_origins: no frame at all");
  t.match(none.message, /was not used/);
  t.ok((await cashier.redeemAutologin({ autologinToken: unlisted })).sessionToken, "the link still opens in its own window");

  const listed = await start("framed-usd");
  const stranger = await framed(listed, "https://evil.example");
  t.equal(stranger.reason, ErrorReason.NOT_ALLOWED_BY_FRONTEND, "a framing origin not listed");
  t.ok((await cashier.redeemAutologin({ autologinToken: listed, framed: true, framingOrigin: "https://shop.example" })).sessionToken, "a listed one opens");
  const untold = await start("framed-usd");
  t.ok(
    (await cashier.redeemAutologin({ autologinToken: untold, framed: true })).sessionToken,
    "an origin the browser did not tell is the pages' frame-ancestors' to judge",
  );
  const used = await framed(listed, "https://evil.example");
  t.equal(used.reason, ErrorReason.AUTOLOGIN_UNUSABLE, "a used link stays unusable, framed or not, and says nothing of its frontend");
});

t.test("an approved deposit: Validation with the session's auth_token and created_by customer, a notification, a service-made order id", async (t) => {
  const { token, reply } = await opened({ notification_url: `${stub.url}/notify/cash`, sc_order_id: "SC-1", udef1: "u-one", udef2: "u-two" });
  const res = await deposit(token, "4111111111111111", 1500);
  const tx = res.transaction!;
  t.equal(tx.status, TransactionStatus.APPROVED, res.description);
  t.match(tx.orderId, /^cashier-[A-Za-z0-9_-]{16}$/);
  t.equal(res.description, "Your payment was approved.");
  const [v] = await stub.waitFor("validation", (c) => body(c).trace_id === tx.traceId);
  t.equal(body(v).auth_token, reply.auth_token, "Validation carries the session's auth_token");
  t.equal(body(v).created_by, "customer");
  t.equal(body(v).order_id, tx.orderId);
  const [n] = await stub.waitFor("notification", (c) => body(c).trace_id === tx.traceId);
  t.equal(body(n).transaction_status, "approved", "the platform hears the result it never got as a reply");
  const [row] = await service().sql<{ created_by: string; sc_order_id: string }>("select created_by, sc_order_id from payment_order where order_id = $1", [
    tx.orderId,
  ]);
  t.same([row.created_by, row.sc_order_id], ["customer", "SC-1"]);
  const mine = await cashier.getSessionTransaction({ sessionToken: token, traceId: tx.traceId });
  t.equal(mine.transaction!.status, TransactionStatus.APPROVED);
  const other = await opened();
  const notMine = await refusal(cashier.getSessionTransaction({ sessionToken: other.token, traceId: tx.traceId }));
  t.equal(notMine.code, Code.NotFound, "another session does not see it");
});

t.test("a declined deposit sends RecordFailedDeposit with SCOrderID, Udef1, Udef2 and CreatedBy customer; try again gets a new order id", async (t) => {
  const { token } = await opened({ sc_order_id: "SC-9", udef1: "alpha", udef2: "beta" });
  const res = await deposit(token, "4000000000009995", 1500);
  t.equal(res.transaction!.status, TransactionStatus.DECLINED);
  t.match(res.description, /insufficient funds/);
  const [rfd] = await stub.waitFor("record_failed_deposit", (c) => body(c).TraceID === res.transaction!.traceId);
  t.same([body(rfd).SCOrderID, body(rfd).Udef1, body(rfd).Udef2, body(rfd).CreatedBy], ["SC-9", "alpha", "beta", "customer"]);
  const retry = await deposit(token, "5555555555554444", 1500);
  t.equal(retry.transaction!.status, TransactionStatus.APPROVED);
  t.not(retry.transaction!.orderId, res.transaction!.orderId, "a new order id, never a reused one");
  const view = await cashier.getCashierSession({ sessionToken: token });
  t.equal(view.session!.transactions.length, 2, "both attempts belong to the session");
});

t.test("pending, 3-D Secure and the cascade go as they do for Process", async (t) => {
  const { token } = await opened({ notification_url: `${stub.url}/notify/pending` });
  const pending = await deposit(token, "4000000000000077");
  t.equal(pending.transaction!.status, TransactionStatus.PENDING);
  const settled = await until(async () => {
    const r = await cashier.getSessionTransaction({ sessionToken: token, traceId: pending.transaction!.traceId });
    return r.transaction!.status === TransactionStatus.APPROVED ? r : undefined;
  }, 20_000);
  t.ok(settled, "the pending deposit ends approved");
  const told = await stub.waitFor("notification", (c) => body(c).trace_id === pending.transaction!.traceId, { count: 2 });
  t.same(
    told.map((c) => body(c).transaction_status),
    ["pending", "approved"],
    "the platform, which saw no reply, hears the first result though it stayed as created, then the final one",
  );

  const threeDs = await deposit(token, "4000000000003220");
  const tx = threeDs.transaction!;
  t.equal(tx.status, TransactionStatus.PENDING_ASYNC);
  const m = /\/3ds\/(\d+)\/([0-9a-f]+)$/.exec(tx.redirectUrl);
  t.ok(m, `a challenge address: ${tx.redirectUrl}`);
  const done = await service().client.completeChallenge({ traceId: Number(m![1]), mac: m![2], passed: true });
  t.equal(done.transaction!.status, TransactionStatus.APPROVED);
  t.equal(done.returnUrl, `${service().edgeUrl}/cashier/s/${token}/return`, "the challenge leads back to the Cashier's page");
  const refusedReturn = await refusal(deposit(token, "4111111111111111", 1500, { returnUrl: "https://evil.example/x" }));
  t.same(refusedReturn.fields, ["return_url"]);

  const cascade = await deposit(token, "4000000000000259");
  t.equal(cascade.transaction!.status, TransactionStatus.DECLINED_RETRY);
  const next = await until(async () => {
    const v = await cashier.getCashierSession({ sessionToken: token });
    return v.session!.transactions.find((x) => x.orderId === cascade.transaction!.orderId && x.status === TransactionStatus.APPROVED);
  }, 20_000);
  t.equal(next?.paymentProcessor, "sim-b", "the cascade's next attempt is approved on sim-b, inside the session");
});

t.test("the amount: the session's fixed amount, else the frontend's limits; bad input names the form's field", async (t) => {
  const fixed = await opened({ amount: 2000 });
  t.same((await refusal(deposit(fixed.token, "4111111111111111", 2100))).fields, ["amount"]);
  t.equal((await deposit(fixed.token, "4111111111111111", 2000)).transaction!.status, TransactionStatus.APPROVED);
  const free = await opened();
  const low = await refusal(deposit(free.token, "4111111111111111", 499));
  t.same([low.code, low.fields], [Code.InvalidArgument, ["amount"]]);
  t.match(low.message, /below the frontend's deposit minimum/);
  const card = await refusal(
    cashier.submitDeposit({
      sessionToken: free.token,
      amount: usd(1000),
      source: newCard("4111111111111112", { card: { number: "4111111111111112", cvv: "12345", expiry: "13/2020" } }),
      returnUrl: "/cashier/x",
      submissionKey: formKey(),
    }),
  );
  t.same(card.fields.sort(), ["new_card.card.cvv", "new_card.card.expiry", "new_card.card.number"]);
  const ended = await refusal(deposit("y".repeat(43), "4111111111111111"));
  t.equal(ended.reason, ErrorReason.SESSION_ENDED);
  const w = await opened({}, true);
  t.equal((await refusal(deposit(w.token, "4111111111111111"))).code, Code.FailedPrecondition, "a withdrawal session takes no deposit");
});

t.test("saved cards: kept after an approved deposit, used with a fresh CVV, deleted with the sealed number", async (t) => {
  customer += 1;
  const pin = `saver-${process.pid}-${customer}`;
  const first = await opened({ pin });
  const kept = await deposit(first.token, "5555555555554444", 1500, { source: newCard("5555555555554444", { save: true }) });
  t.equal(kept.transaction!.status, TransactionStatus.APPROVED);
  const declined = await deposit(first.token, "4000000000000002", 1500, { source: newCard("4000000000000002", { save: true }) });
  t.equal(declined.transaction!.status, TransactionStatus.DECLINED);
  const later = await opened({ pin });
  const cards = later.redeemed.session!.savedCards;
  t.equal(cards.length, 1, "only the approved deposit's card is kept");
  t.same([cards[0].card!.maskedNumber, cards[0].holder, cards[0].withdrawable], ["555555******4444", "Jane Doe", true]);
  // The withdrawal form without scripts shows the saved card and a new card's fields at once: a number typed while
  // the saved card stays chosen is not guessed at; the customer is asked which card is meant.
  const payout = await opened({ pin }, true);
  const formPath = `/cashier/s/${payout.token}/withdrawal`;
  const formPage = await (await fetch(service().edgeUrl + formPath)).text();
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(formPage)?.[1] ?? "";
  const both = await fetch(service().edgeUrl + formPath, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      session_token: hidden("session_token"),
      csrf_token: hidden("csrf_token"),
      amount: "20.00",
      destination: cards[0].cardId,
      card_number: "4111111111111111",
      card_exp: "12/2031",
      holder: "Jane Doe",
    }).toString(),
  });
  t.equal(both.status, 400, "refused, nothing made");
  t.match(await both.text(), "You chose a saved card and also typed a new card number");
  t.same(await service().sql("select id from payment_order where merchant_id = 'm-cash' and pin = $1 and type = 'payout'", [pin]), [], "no payout");
  const [row] = await service().sql<{ card_sealed: string }>("select card_sealed from saved_card where id = $1", [cards[0].cardId]);
  t.match(row.card_sealed, /^v1\./, "its number is sealed");
  // A deposit of 10.00 with the saved card, from the session of `sessionToken`.
  const withSavedCard = (sessionToken: string, savedCardCvv?: string) =>
    cashier.submitDeposit({
      sessionToken,
      amount: usd(1000),
      source: { case: "savedCardId", value: cards[0].cardId },
      ...(savedCardCvv === undefined ? {} : { savedCardCvv }),
      returnUrl: "/cashier/r",
      submissionKey: formKey(),
    });
  const noCvv = await refusal(withSavedCard(later.token));
  t.same(noCvv.fields, ["saved_card_cvv"]);
  const reused = await withSavedCard(later.token, "321");
  t.equal(reused.transaction!.status, TransactionStatus.APPROVED);
  t.equal(reused.transaction!.card!.maskedNumber, "555555******4444");
  // A frontend that keeps no cards (open-usd: save_cards false) offers none, not even this one kept at cash-usd.
  const elsewhere = await opened({ pin, frontend: "open-usd" });
  t.same(elsewhere.redeemed.session!.savedCards, [], "save_cards false: the card kept at another frontend is not listed");
  const usedThere = await refusal(withSavedCard(elsewhere.token, "321"));
  t.same(usedThere.fields, ["saved_card_id"], "nor used there by its id");
  const elsewherePayout = await opened({ pin, frontend: "open-usd" }, true);
  t.same(elsewherePayout.redeemed.session!.savedCards, [], "nor offered for a withdrawal there");
  const stranger = await opened();
  t.equal((await refusal(cashier.deleteSavedCard({ sessionToken: stranger.token, cardId: cards[0].cardId }))).code, Code.NotFound, "not another customer's");
  await cashier.deleteSavedCard({ sessionToken: later.token, cardId: cards[0].cardId });
  t.same(await service().sql("select id from saved_card where id = $1", [cards[0].cardId]), [], "the row and its sealed number are gone");
  t.notOk((await service().sql<{ v: string }>("select card_sealed as v from saved_card")).some((r) => r.v === row.card_sealed));
  t.equal((await cashier.getCashierSession({ sessionToken: later.token })).session!.savedCards.length, 0);
  const challenged = await deposit(later.token, "4000000000003220", 1500, { source: newCard("4000000000003220", { save: true }) });
  const waiting = await service().sql("select id from saved_card where order_ref = (select order_ref from transaction where trace_id = $1)", [
    challenged.transaction!.traceId,
  ]);
  t.equal(waiting.length, 1, "a card asked to be kept waits for its deposit");
  t.notOk(
    (await cashier.getCashierSession({ sessionToken: later.token })).session!.savedCards.some((c) => c.card!.maskedNumber.endsWith("3220")),
    "and is not offered yet",
  );
  const m = /\/3ds\/(\d+)\/([0-9a-f]+)$/.exec(challenged.transaction!.redirectUrl)!;
  await service().client.completeChallenge({ traceId: Number(m[1]), mac: m[2], passed: false });
  t.same(
    await service().sql("select id from saved_card where order_ref = (select order_ref from transaction where trace_id = $1)", [
      challenged.transaction!.traceId,
    ]),
    [],
    "the deposit failed: the kept card and its sealed number went with the status change",
  );
  const off = await opened({ pin, frontend: "open-usd" });
  await deposit(off.token, "4111111111111111", 1500, { source: newCard("4111111111111111", { save: true }) });
  t.equal((await cashier.getCashierSession({ sessionToken: off.token })).session!.savedCards.length, 0, "save_cards false: nothing kept");
});

t.test("withdrawals: closed loop by card fingerprint, limits and balance, auto approval", async (t) => {
  customer += 1;
  const pin = `payee-${process.pid}-${customer}`;
  const dep = await opened({ pin });
  await deposit(dep.token, "4111111111111111", 5000, { source: newCard("4111111111111111", { save: true }) });
  const w = await opened({ pin, balance: 3000 }, true);
  const saved = w.redeemed.session!.savedCards[0];
  t.equal(saved.withdrawable, true);
  const stranger = await refusal(cashier.submitWithdrawal({ sessionToken: w.token, amount: usd(1000), destination: newCard("5555555555554444") }));
  t.same([stranger.code, stranger.fields], [Code.InvalidArgument, ["new_card.card.number"]], "a card never deposited from: refused by name");
  t.same(
    (await refusal(cashier.submitWithdrawal({ sessionToken: w.token, amount: usd(3001), destination: { case: "savedCardId", value: saved.cardId } }))).fields,
    ["amount"],
  );
  const paid = await cashier.submitWithdrawal({ sessionToken: w.token, amount: usd(2500), destination: { case: "savedCardId", value: saved.cardId } });
  t.equal(paid.transaction!.orderId, w.body.order_id, "the payout carries the session's order_id");
  t.equal(paid.transaction!.status, TransactionStatus.APPROVED);
  const [v] = await stub.waitFor("validation", (c) => body(c).trace_id === paid.transaction!.traceId);
  t.same([body(v).transaction_status, body(v).created_by, body(v).auth_token], ["requested", "customer", w.reply.auth_token]);
  const typed = await opened({ pin }, true);
  const byNumber = await cashier.submitWithdrawal({ sessionToken: typed.token, amount: usd(1000), destination: newCard("4111111111111111") });
  t.equal(byNumber.transaction!.status, TransactionStatus.APPROVED, "the deposited card typed in passes the closed loop");
  const open = await opened({ pin, frontend: "open-usd" }, true);
  const anyCard = await cashier.submitWithdrawal({ sessionToken: open.token, amount: usd(1000), destination: newCard("5555555555554444") });
  t.equal(anyCard.transaction!.status, TransactionStatus.APPROVED, "closed_loop_withdrawals false: any card");
});

t.test("the cancel switch: pending withdrawals listed, cancelled by the customer only where the frontend allows it", async (t) => {
  customer += 1;
  const pin = `canceller-${process.pid}-${customer}`;
  const open = await opened({ pin, merchant_id: "m-cash-manual", frontend: "cancel-usd", notification_url: `${stub.url}/notify/manual` }, true);
  const wd = await cashier.submitWithdrawal({ sessionToken: open.token, amount: usd(1200), destination: newCard("4111111111111111") });
  t.equal(wd.transaction!.status, TransactionStatus.REQUESTED, "manual approval waits in requested");
  const [requested] = await stub.waitFor("notification", (c) => body(c).trace_id === wd.transaction!.traceId);
  t.equal(body(requested).transaction_status, "requested", "the withdrawal waiting for approval is told to the platform");
  const listed = (await cashier.getCashierSession({ sessionToken: open.token })).session!.pendingWithdrawals;
  t.same(
    listed.map((x) => x.traceId),
    [wd.transaction!.traceId],
  );
  const cancelled = await cashier.cancelWithdrawal({ sessionToken: open.token, traceId: wd.transaction!.traceId });
  t.equal(cancelled.transaction!.status, TransactionStatus.CANCELLED);
  const [up] = await stub.waitFor("update_payout", (c) => body(c).TraceID === wd.transaction!.traceId && body(c).Status === "C");
  t.equal(body(up).UpdatedBy, "customer");
  t.equal((await cashier.getCashierSession({ sessionToken: open.token })).session!.pendingWithdrawals.length, 0);

  const closed = await opened({ pin, merchant_id: "m-cash-manual", frontend: "nocancel-usd" }, true);
  const wd2 = await cashier.submitWithdrawal({ sessionToken: closed.token, amount: usd(1200), destination: newCard("4111111111111111") });
  const refused = await refusal(cashier.cancelWithdrawal({ sessionToken: closed.token, traceId: wd2.transaction!.traceId }));
  t.same([refused.code, refused.reason], [Code.FailedPrecondition, ErrorReason.NOT_ALLOWED_BY_FRONTEND]);
  t.match(refused.message, /player_cancel_withdrawal/);

  // The same customer in a session of the sibling frontend that allows cancelling: nocancel-usd's withdrawal is not
  // listed there, and cannot be cancelled from there.
  const sibling = await opened({ pin, merchant_id: "m-cash-manual", frontend: "cancel-usd" }, true);
  const siblingList = (await cashier.getCashierSession({ sessionToken: sibling.token })).session!.pendingWithdrawals;
  t.notOk(
    siblingList.some((x) => x.traceId === wd2.transaction!.traceId),
    "another frontend's withdrawal is not listed",
  );
  const across = await refusal(cashier.cancelWithdrawal({ sessionToken: sibling.token, traceId: wd2.transaction!.traceId }));
  t.same([across.code, across.reason], [Code.NotFound, ErrorReason.NOT_FOUND], "nor cancelled from a frontend that allows it");
  const [still] = await service().sql<{ status: string }>("select status from transaction where trace_id = $1", [wd2.transaction!.traceId]);
  t.equal(still.status, "requested");
});

t.test("a direct gRPC caller's session start is refused in StartSessionRequest's field paths", async (t) => {
  const r = await refusal(
    cashier.startSession({
      merchantId: "m-cash",
      intent: 0,
      frontend: "cash-usd",
      currency: "USD",
      amountMinor: 0n,
      customer: { pin: "p", email: "a@example.com", firstName: "A", lastName: "B", country: "GB" },
      returnUrl: "https://merchant.example/r",
      version: "1.0",
    }),
  );
  t.same([r.code, r.fields], [Code.InvalidArgument, ["intent", "amount_minor"]]);
  const ok = await cashier.startSession({
    merchantId: "m-cash",
    intent: 1,
    frontend: "cash-usd",
    currency: "USD",
    customer: { pin: "p", email: "a@example.com", firstName: "A", lastName: "B", country: "GB" },
    returnUrl: "https://merchant.example/r",
    version: "1.0",
  });
  t.match(ok.redirectUrl, /\/cashier\/autologin\/[A-Za-z0-9_-]{43}$/);
  t.equal(ok.wireReply, undefined, "typed answers, no JSON, for a direct caller");
});

t.test("a late autologin and an ended session reveal nothing; a repeat after the end makes a new session (the clock moved, so this runs last)", async (t) => {
  const b = sessionBody({ merchant_id: "m-cash", frontend: "cash-usd", timestamp: nowSeconds(), sc_order_id: orderId("sc") });
  const r = await postSession(service().edgeUrl, b);
  const live = await opened();
  const unknown = await refusal(cashier.redeemAutologin({ autologinToken: "x".repeat(43) }));
  clock.advance((TTL + 1) * 1000);
  const expired = await refusal(cashier.redeemAutologin({ autologinToken: autologinOf(r.body.redirect_url) }));
  t.same([expired.reason, expired.message], [ErrorReason.AUTOLOGIN_UNUSABLE, unknown.message], "after expires_at: the same refusal as an unknown token");
  const ended = await refusal(cashier.getCashierSession({ sessionToken: live.token }));
  t.same([ended.code, ended.reason], [Code.FailedPrecondition, ErrorReason.SESSION_ENDED], "the browser session ends at expires_at");
  const fresh = await postSession(service().edgeUrl, { ...b, timestamp: nowSeconds() });
  t.equal(fresh.http, 200);
  t.not(fresh.body.redirect_url, r.body.redirect_url, "a repeat after the session ended makes a new deposit session");
});

const CARDS = ["4111111111111111", "5555555555554444", "4000000000000002", "4000000000009995", "4000000000003220", "4000000000000077", "4000000000000259"];

t.test("no full card number or CVV in the Cashier's tables, any text column, the callbacks or the logs; no session token in any table", async (t) => {
  const columns = await service().sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'character')`,
  );
  t.ok(columns.some((c) => c.table_name === "hosted_session") && columns.some((c) => c.table_name === "saved_card"), "the Cashier's tables are scanned");
  for (const { table_name, column_name } of columns) {
    const rows = await service().sql<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
    const bad = rows.filter((r) => CARDS.some((c) => r.v.includes(c)));
    t.same(bad, [], `${table_name}.${column_name}`);
    // A 3-D Secure deposit's way back to its session page (/cashier/s/<token>/return) is kept sealed.
    const live = rows.filter((r) => tokens.some((tk) => r.v.includes(tk)));
    t.same(live, [], `${table_name}.${column_name}: no session token`);
  }
  t.ok(tokens.length > 10, `${tokens.length / 2} sessions' tokens looked for`);
  for (const c of stub.received())
    t.notOk(
      CARDS.some((n) => c.rawBody.includes(n)),
      `${c.kind} carries no card number`,
    );
  const logs = service().logs();
  t.notOk(
    CARDS.some((n) => logs.includes(n)),
    "the logs carry no card number",
  );
  t.notMatch(logs, /"cvv"|savedCardCvv|"321"/, "nor a CVV");
});
