/**
 * Acquirers' webhooks (CONTRACT 11) in their use case, over a real Postgres and the acquirer simulator's Checkout.com
 * stand-in: a verified event is kept and applied once, through the same step as a lookup's answer, its inbox row
 * and the status change together; the same event again changes nothing and is acknowledged; a forged one changes
 * nothing and is refused; an event that says less than the attempt already is changes nothing; a refund's event
 * carrying the sale's reference does not touch the sale. Over sockets: test/e2e/acquirer-webhooks.test.ts.
 */
import { createHmac } from "node:crypto";
import t from "tap";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { receiveAcquirerWebhook } from "../../../../../engine/payments/app/receive-acquirer-webhook.ts";
import type { MerchantSpec } from "../../../../../engine/payments/ports/merchants.ts";
import { PgWebhookInbox } from "../../../../../engine/payments/store/webhook-inbox-store.ts";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import { itemSignature } from "../../../../../engine/payments/processors/adyen/webhooks.ts";
import { ADYEN, CHANNEL, CKO, type DialectSim, startDialectSim } from "../../../../support/acquirer-sim-dialects.ts";
import { aProcessInput } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
/** A card the Checkout.com stand-in challenges: the sale waits in pending_async for the acquirer's word. */
const CKO_CHALLENGE_CARD = "4010061700000021";

let acquirer: DialectSim | undefined;
t.before(async () => {
  acquirer = await startDialectSim(t);
  const merchant: MerchantSpec = {
    merchantId: "m-hook",
    secret: "hook-secret-0123456789",
    processors: ["cko-main"],
    frontends: [{ name: "hook-usd", baseCurrency: "USD" }],
    processorAccounts: [
      {
        name: "cko-main",
        connector: "checkout",
        enabled: true,
        url: `${acquirer.sim.url}/checkout`,
        credentials: { secret_key: CKO.secret_key, webhook_secret: CKO.webhook_secret },
        settings: { processing_channel_id: CHANNEL },
      },
    ],
  };
  await engine().merchants.upsert(merchant);
  await engine().merchants.upsert({
    merchantId: "m-hook-adyen",
    secret: "hook-secret-0123456789",
    processors: ["adyen-eu"],
    frontends: [{ name: "hook-usd", baseCurrency: "USD" }],
    processorAccounts: [
      {
        name: "adyen-eu",
        connector: "adyen",
        enabled: true,
        url: `${acquirer.sim.url}/adyen/v71`,
        credentials: { api_key: ADYEN.api_key, hmac_key: ADYEN.hmac_key },
        settings: { merchant_account: ADYEN.merchant_account },
      },
    ],
  });
});

let n = 0;
async function challengedSale(): Promise<Attempt> {
  n += 1;
  const input = aProcessInput({ merchantId: "m-hook", orderId: `hook-${process.pid}-${n}`, frontend: "hook-usd", card: { number: CKO_CHALLENGE_CARD } });
  const r = await processTransaction(engine().deps, input, undefined);
  if (!r.ok) throw new Error(`refused: ${r.error.message}`);
  return r.attempt;
}

/** A Checkout.com event as it sends one, signed with the account's webhook_secret (hex HMAC-SHA256 of the raw body). */
function ckoEvent(id: string, type: string, data: Record<string, unknown>, secret = CKO.webhook_secret) {
  const body = Buffer.from(JSON.stringify({ id, type, created_on: "2026-11-29T00:00:00Z", data }));
  return { body, headers: { "content-type": "application/json", "cko-signature": createHmac("sha256", secret).update(body).digest("hex") } };
}

/** What the use case told an operator, as the engine's log would have it. */
const warnings: { fields: Record<string, unknown>; message: string }[] = [];
const receive = (e: { body: Buffer; headers: Record<string, string> }, account = "cko-main", merchantId = "m-hook") =>
  receiveAcquirerWebhook({ ...engine().deps, warn: (fields, message) => warnings.push({ fields, message }) }, new PgWebhookInbox(engine().orm), {
    merchantId,
    account,
    headers: e.headers,
    body: e.body,
  });

const inboxRows = (eventId: string) =>
  engine().sql<{ trace_id: string | null; outcome: string; applied: boolean }>(
    "select trace_id, outcome, applied_at is not null as applied from acquirer_webhook_event where event_id = ?",
    [eventId],
  );
const historyOf = (traceId: number) => engine().deps.orders.history(traceId);

t.test("a verified event is applied once; the same event again changes nothing and is acknowledged", async (t) => {
  const sale = await challengedSale();
  t.equal(sale.status, "pending_async", "the stand-in asks for a challenge");
  t.ok(sale.transactionId, "the acquirer's payment id is kept");
  const event = ckoEvent(`evt_ok_${n}`, "payment_approved", { id: sale.transactionId, reference: String(sale.traceId), status: "Authorized" });

  const first = await receive(event);
  t.same(first, { ok: true, ack: { contentType: "text/plain", body: "" } }, "Checkout.com's empty 200");
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "approved");
  t.same(await inboxRows(`evt_ok_${n}`), [{ trace_id: String(sale.traceId), outcome: "applied", applied: true }], "kept once, applied");
  const changes = (await historyOf(sale.traceId)).length;

  const again = await receive(event);
  t.same(again, first, "a replay is acknowledged alike");
  t.equal((await inboxRows(`evt_ok_${n}`)).length, 1, "and kept no second time");
  t.equal((await historyOf(sale.traceId)).length, changes, "nor changes the attempt");
});

t.test("a forged event is refused and changes nothing", async (t) => {
  const sale = await challengedSale();
  const forged = ckoEvent(`evt_forged_${n}`, "payment_approved", { id: sale.transactionId, reference: String(sale.traceId) }, "not-the-secret");
  const r = await receive(forged);
  t.match(r, { ok: false, error: { reason: "SIGNATURE_INVALID" } });
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "pending_async");
  t.same(await inboxRows(`evt_forged_${n}`), [], "nothing kept");
  const tampered = ckoEvent(`evt_tampered_${n}`, "payment_approved", { id: sale.transactionId });
  const r2 = await receive({ body: Buffer.from(tampered.body.toString().replace("approved", "declined")), headers: tampered.headers });
  t.match(r2, { ok: false, error: { reason: "SIGNATURE_INVALID" } }, "a body changed after signing");
});

t.test("an event saying less than the attempt already is changes nothing, and is kept", async (t) => {
  const sale = await challengedSale();
  t.ok((await receive(ckoEvent(`evt_win_${n}`, "payment_approved", { id: sale.transactionId, reference: String(sale.traceId) }))).ok);
  const changes = (await historyOf(sale.traceId)).length;
  const late = await receive(ckoEvent(`evt_late_${n}`, "payment_declined", { id: sale.transactionId, reference: String(sale.traceId) }));
  t.ok(late.ok, "acknowledged");
  const after = await engine().deps.orders.get(sale.traceId);
  t.equal(after?.status, "approved", "a final attempt stays as it is");
  t.equal((await historyOf(sale.traceId)).length, changes);
  t.same(await inboxRows(`evt_late_${n}`), [{ trace_id: String(sale.traceId), outcome: "unchanged", applied: false }]);
});

t.test("a refund's event carrying the sale's reference does not touch the sale", async (t) => {
  const sale = await challengedSale();
  const r = await receive(
    ckoEvent(`evt_refund_${n}`, "payment_refunded", { id: sale.transactionId, action_id: "act_not_ours", reference: String(sale.traceId) }),
  );
  t.ok(r.ok);
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "pending_async", "the sale is untouched");
  t.same(await inboxRows(`evt_refund_${n}`), [{ trace_id: String(sale.traceId), outcome: "flow-mismatch", applied: false }]);
});

t.test("refusals: an unknown merchant or account, a body not Checkout.com's; nothing kept", async (t) => {
  const e = ckoEvent("evt_nowhere", "payment_approved", { id: "pay_x" });
  t.match(await receive(e, "cko-main", "m-nobody"), { ok: false, error: { reason: "NOT_FOUND" } });
  t.match(await receive(e, "no-such-account"), { ok: false, error: { reason: "NOT_FOUND" } });
  const notJson = Buffer.from("not json");
  const signed = { body: notJson, headers: { "cko-signature": createHmac("sha256", CKO.webhook_secret).update(notJson).digest("hex") } };
  t.match(await receive(signed), { ok: false, error: { reason: "MALFORMED_BODY" } });
  t.same(await inboxRows("evt_nowhere"), []);
});

t.test("an event whose amount or currency is not its attempt's is kept, acknowledged and warned of, and changes nothing", async (t) => {
  for (const [label, over] of [
    ["amount", (a: Attempt) => ({ amount: a.amountMinor + 1, currency: a.currency })],
    ["currency", (a: Attempt) => ({ amount: a.amountMinor, currency: a.currency === "EUR" ? "USD" : "EUR" })],
  ] as const) {
    const sale = await challengedSale();
    const id = `evt_${label}_${n}`;
    warnings.length = 0;
    const r = await receive(ckoEvent(id, "payment_approved", { id: sale.transactionId, reference: String(sale.traceId), ...over(sale) }));
    t.same(r, { ok: true, ack: { contentType: "text/plain", body: "" } }, `${label}: acknowledged, so the acquirer does not send it again`);
    t.equal((await engine().deps.orders.get(sale.traceId))?.status, "pending_async", `${label}: the attempt is untouched`);
    t.same(await inboxRows(id), [{ trace_id: String(sale.traceId), outcome: "amount-mismatch", applied: false }], `${label}: kept, saying why`);
    t.equal(warnings.length, 1, `${label}: one warning`);
    t.match(warnings[0], {
      message: "acquirer webhook not applied: amount-mismatch",
      fields: { merchant_id: "m-hook", account: "cko-main", event_id: id, trace_id: sale.traceId, amount: sale.amountMinor, currency: sale.currency },
    });
    t.notMatch(JSON.stringify(warnings[0]), /\d{12,19}/, `${label}: no card number in the warning`);
  }
  const sale = await challengedSale();
  const same = await receive(
    ckoEvent(`evt_same_${n}`, "payment_approved", {
      id: sale.transactionId,
      reference: String(sale.traceId),
      amount: sale.amountMinor,
      currency: sale.currency,
    }),
  );
  t.ok(same.ok);
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "approved", "the same amount and currency: applied");
});

/** An Adyen notification of one item, signed with the account's HMAC key. */
function adyenNotification(item: Record<string, unknown>) {
  const signed = { ...item, additionalData: { hmacSignature: itemSignature(item, ADYEN.hmac_key) } };
  return { body: Buffer.from(JSON.stringify({ live: "false", notificationItems: [{ NotificationRequestItem: signed }] })), headers: {} };
}

t.test("an Adyen notification for another merchant account changes nothing, whatever its reference", async (t) => {
  n += 1;
  const input = aProcessInput({ merchantId: "m-hook-adyen", orderId: `hook-${process.pid}-${n}`, frontend: "hook-usd", card: { number: "4917610000000000" } });
  const r = await processTransaction(engine().deps, input, undefined);
  if (!r.ok) throw new Error(`refused: ${r.error.message}`);
  const sale = r.attempt;
  t.equal(sale.status, "pending_async", "Adyen's stand-in redirects this card to a challenge");
  const item = (over: Record<string, unknown>) => ({
    pspReference: sale.transactionId,
    merchantAccountCode: ADYEN.merchant_account,
    merchantReference: String(sale.traceId),
    amount: { value: sale.amountMinor, currency: sale.currency },
    eventCode: "AUTHORISATION",
    success: "true",
    ...over,
  });
  const receiveAdyen = (i: Record<string, unknown>) => receive(adyenNotification(i), "adyen-eu", "m-hook-adyen");
  warnings.length = 0;
  // Another merchant account's payment (a company-level webhook) whose reference is, by chance, this attempt's trace_id.
  const other = await receiveAdyen(item({ pspReference: "OTHERPSP0000001", merchantAccountCode: "AnotherShop" }));
  t.same(other, { ok: true, ack: { contentType: "text/plain", body: "[accepted]" } }, "acknowledged as Adyen expects");
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "pending_async", "untouched");
  t.same(await inboxRows("AUTHORISATION:OTHERPSP0000001::true"), [{ trace_id: null, outcome: "account-mismatch", applied: false }]);
  t.match(warnings, [{ message: "acquirer webhook not applied: account-mismatch", fields: { event_account: "AnotherShop", account_code: "ShopEU" } }]);

  const wrongAmount = await receiveAdyen(item({ success: "false", amount: { value: sale.amountMinor * 100, currency: sale.currency } }));
  t.ok(wrongAmount.ok);
  t.same(await inboxRows(`AUTHORISATION:${sale.transactionId}::false`), [{ trace_id: String(sale.traceId), outcome: "amount-mismatch", applied: false }]);
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "pending_async", "an amount not the attempt's: untouched");

  t.ok((await receiveAdyen(item({}))).ok);
  t.equal((await engine().deps.orders.get(sale.traceId))?.status, "approved", "its own account and amount: applied");
});
