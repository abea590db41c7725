/**
 * A form of the hosted Cashier submitted more than once makes one order,
 * against the running service (engine and edge, real Postgres, the acquirer
 * simulator's ledger, a real platform stub), over gRPC as the pages call it:
 * the same submission key twice, eight at once, or again with other fields
 * answers the first submit's order, with one Validation at the platform and
 * one payment in the simulator's ledger; another key (a fresh form, "Try
 * another card") makes a new order; a key is bound to its session; a form
 * without one is refused by name. The withdrawal form, keyed by the session's
 * order_id, makes one payout however often it is sent.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import type { NewCard } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { ErrorDetailSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { autologinOf, cashierClient, postSession, sessionBody, withdrawalBody, type CashierClient } from "../support/cashier-session.ts";
import { SECRET } from "../support/merchants.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { until } from "../support/until.ts";

let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: { "m-once": SECRET } });
});
t.teardown(() => stub.close());

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: {
    merchants: [
      {
        merchant_id: "m-once",
        secret: SECRET,
        site_id: 9,
        platform_url: stub.url,
        update_payout_url: `${stub.url}/api/UpdatePayout`,
        validation_url: `${stub.url}/api/validation`,
        frontends: [{ name: "once-usd", base_currency: "USD", closed_loop_withdrawals: false }],
      },
    ],
  },
}));
let cashier: CashierClient;
t.before(() => {
  cashier = cashierClient(service().engineUrl);
});

let customers = 0;

/** A session of a new customer started over HTTP and its autologin redeemed: the browser session's token. */
async function opened(withdrawal = false): Promise<string> {
  customers += 1;
  const pin = `once-${process.pid}-${customers}`;
  const b = (withdrawal ? withdrawalBody : sessionBody)({ merchant_id: "m-once", frontend: "once-usd", pin, timestamp: Math.floor(Date.now() / 1000) });
  const r = await postSession(service().edgeUrl, b);
  if (r.http !== 200) throw new Error(`session start: ${r.text}`);
  return (await cashier.redeemAutologin({ autologinToken: autologinOf(r.body.redirect_url), requesterIp: "203.0.113.9" })).sessionToken;
}

const formKey = () => randomBytes(16).toString("base64url");
const newCard = (number: string): { case: "newCard"; value: NewCard } =>
  ({ case: "newCard", value: { card: { number, cvv: "123", expiry: "12/2031" }, holder: "Jane Doe", save: false } }) as never;
const deposit = (token: string, submissionKey: string, amountMinor = 1500, number = "4111111111111111") =>
  cashier.submitDeposit({
    sessionToken: token,
    amount: { amountMinor: BigInt(amountMinor), currency: "USD" },
    source: newCard(number),
    requesterIp: "203.0.113.9",
    returnUrl: `/cashier/s/${token}/return`,
    submissionKey,
  });

/** Validations the platform received for one order id. */
const validations = (orderId: string) => stub.received("validation").filter((c) => (c.body as Record<string, unknown>).order_id === orderId);

/** Payments the acquirer simulator answered (its ledger, written before each answer): every processor call that took one. */
function ledgerPayments(): number {
  const file = join(service().dataDir, "acquirer-sim", "ledger.jsonl");
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{") && (JSON.parse(l) as { t: string }).t === "payment").length;
}

/** The orders made in the browser session's Cashier session. */
async function sessionOrders(token: string): Promise<string[]> {
  const { session } = await cashier.getCashierSession({ sessionToken: token });
  return [...new Set(session!.transactions.map((x) => x.orderId))];
}

t.test("the same key twice: the first submit's order answered again, one Validation, one processor payment; another key: a new order", async (t) => {
  const token = await opened();
  const key = formKey();
  const paymentsBefore = ledgerPayments();
  const first = await deposit(token, key);
  const x = first.transaction!;
  t.equal(x.status, TransactionStatus.APPROVED);
  t.equal(first.replayed, false);
  t.match(x.orderId, /^cashier-[A-Za-z0-9_-]{16}$/);
  const again = await deposit(token, key);
  t.same([again.transaction!.traceId, again.transaction!.orderId, again.transaction!.status], [x.traceId, x.orderId, TransactionStatus.APPROVED]);
  t.equal(again.replayed, true, "the answer says it is the first submit's order");
  t.equal(validations(x.orderId).length, 1, "the platform was asked once");
  t.equal(ledgerPayments() - paymentsBefore, 1, "the processor took one payment");

  const other = await deposit(token, formKey(), 1500, "4000000000000002");
  t.not(other.transaction!.orderId, x.orderId, "a fresh form makes a new order");
  t.equal(other.transaction!.status, TransactionStatus.DECLINED);
  t.equal(other.replayed, false);
  t.equal(validations(other.transaction!.orderId).length, 1);
  t.equal(ledgerPayments() - paymentsBefore, 2);
  t.same((await sessionOrders(token)).sort(), [x.orderId, other.transaction!.orderId].sort());
});

t.test("eight submits of one form at once make exactly one order, one Validation, one processor payment", async (t) => {
  const token = await opened();
  const key = formKey();
  const paymentsBefore = ledgerPayments();
  const all = await Promise.all(Array.from({ length: 8 }, () => deposit(token, key, 2500)));
  const orderIds = new Set(all.map((r) => r.transaction!.orderId));
  t.equal(orderIds.size, 1, "every answer names the same order");
  t.equal(new Set(all.map((r) => r.transaction!.traceId)).size, 1, "and the same attempt");
  t.equal(all.filter((r) => !r.replayed).length, 1, "one submit made it, seven were answered it");
  const [orderId] = orderIds;
  t.same(await sessionOrders(token), [orderId]);
  const rows = await service().sql<{ n: string }>("select count(*) as n from payment_order where order_id = $1", [orderId]);
  t.equal(Number(rows[0].n), 1);
  const final = await until(async () => {
    const { transaction } = await cashier.getSessionTransaction({ sessionToken: token, traceId: all[0].transaction!.traceId });
    return transaction!.status === TransactionStatus.APPROVED;
  }, 10_000);
  t.ok(final, "the order is approved");
  t.equal(validations(orderId).length, 1, "the platform was asked once");
  t.equal(ledgerPayments() - paymentsBefore, 1, "the processor took one payment");
});

t.test("the same key with other fields (a form sent back with a changed amount): the first order, nothing processed again", async (t) => {
  const token = await opened();
  const key = formKey();
  const first = await deposit(token, key, 1500);
  const paymentsBefore = ledgerPayments();
  const changed = await deposit(token, key, 3000, "5555555555554444");
  t.equal(changed.replayed, true);
  t.same([changed.transaction!.traceId, changed.transaction!.amount?.amountMinor], [first.transaction!.traceId, 1500n], "the first order, as it was made");
  t.equal(validations(first.transaction!.orderId).length, 1);
  t.equal(ledgerPayments(), paymentsBefore, "no processor call");
  t.same(await sessionOrders(token), [first.transaction!.orderId]);
});

t.test("a key is bound to its session: the same key in another session names another order", async (t) => {
  const key = formKey();
  const [a, b] = [await opened(), await opened()];
  const ra = await deposit(a, key);
  const rb = await deposit(b, key);
  t.not(ra.transaction!.orderId, rb.transaction!.orderId);
  t.same([ra.replayed, rb.replayed], [false, false]);
});

t.test("a deposit form without a key, or with a malformed one, is refused by name and makes nothing", async (t) => {
  const token = await opened();
  for (const key of ["", "short", "x".repeat(65), "not base64url!!!!!!!!!!!!"]) {
    const err = await deposit(token, key).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof ConnectError, `refused: ${JSON.stringify(key)}`);
    if (!(err instanceof ConnectError)) continue;
    t.equal(err.code, Code.InvalidArgument);
    t.same(
      err.findDetails(ErrorDetailSchema)[0]?.violations.map((v) => v.field),
      ["submission_key"],
    );
  }
  t.same(await sessionOrders(token), []);
});

t.test("the withdrawal form, sent eight times at once and then with another amount, makes one payout and one Validation", async (t) => {
  const token = await opened(true);
  const withdraw = (amountMinor: number) =>
    cashier.submitWithdrawal({ sessionToken: token, amount: { amountMinor: BigInt(amountMinor), currency: "USD" }, destination: newCard("4111111111111111") });
  const all = await Promise.all(Array.from({ length: 8 }, () => withdraw(2000)));
  t.equal(new Set(all.map((r) => r.transaction!.traceId)).size, 1, "one payout");
  t.equal(all.filter((r) => !r.replayed).length, 1);
  const orderId = all[0].transaction!.orderId;
  t.ok(await until(async () => validations(orderId).length >= 1, 10_000), "the payout's Validation arrived");
  const changed = await withdraw(1200);
  t.same(
    [changed.replayed, changed.transaction!.traceId, changed.transaction!.amount?.amountMinor],
    [true, all[0].transaction!.traceId, 2000n],
    "the payout as made",
  );
  t.same(await sessionOrders(token), [orderId]);
  t.equal(validations(orderId).length, 1, "the platform was asked once");
});
