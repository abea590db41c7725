/**
 * Acquirers' webhooks over sockets (CONTRACT 11, issue 30 point 4): merchants with accounts at the acquirer
 * simulator's Checkout.com and Adyen stand-ins; a webhook posted to the edge's /webhooks/{merchant}/{account} is
 * verified with the account's credentials by the engine. A Checkout.com event signed as Checkout.com signs
 * (Cko-Signature: hex HMAC-SHA256 of the raw body under the webhook_secret) is answered 200, kept once and moves the
 * challenged sale; the same event again is answered 200 and kept no second time; a forged one is answered 401 and
 * kept not at all; an Adyen notification is answered `[accepted]`. The use case's cases over Postgres:
 * test/db/engine/payments/app/receive-acquirer-webhook.test.ts.
 */
import { createHmac } from "node:crypto";
import t from "tap";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { itemSignature } from "../../engine/payments/processors/adyen/webhooks.ts";
import { ADYEN, CKO, dialectMerchants } from "../support/acquirer-sim-dialects.ts";
import { useDialectService } from "../support/dialect-service.ts";
import { SECRET } from "../support/merchants.ts";
import { processSale } from "../support/wire.ts";

/** A card the Checkout.com stand-in challenges: the sale waits in pending_async for the acquirer's word. */
const CKO_CHALLENGE_CARD = "4010061700000021";

const { service } = useDialectService(t, (simUrl) => dialectMerchants(simUrl, { secret: SECRET }));

async function postHook(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${service().edgeUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

const ckoSignature = (body: string, secret = CKO.webhook_secret) => createHmac("sha256", secret).update(body).digest("hex");
const kept = (eventId: string) =>
  service().sql<{ outcome: string; applied: boolean }>("select outcome, applied_at is not null as applied from acquirer_webhook_event where event_id = $1", [
    eventId,
  ]);

t.test("Checkout.com: a signed event is answered 200, kept once and applied; a forged one 401 and kept not at all", async (t) => {
  const sale = await processSale(service().edgeUrl, { merchant_id: "m-cko", frontend: "cko-usd", currency: "USD", card_number: CKO_CHALLENGE_CARD });
  t.equal(sale.body.transaction_status, "pending_async", "the stand-in asks for a challenge");
  const traceId = sale.body.trace_id as number;
  const before = (await service().client.getTransaction({ traceId })).transaction;
  t.ok(before?.transactionId, "the acquirer's payment id");

  const eventId = `evt_e2e_${process.pid}`;
  const forged = JSON.stringify({ id: `${eventId}_forged`, type: "payment_declined", data: { id: before!.transactionId, reference: String(traceId) } });
  const refused = await postHook("/webhooks/m-cko/cko-main", forged, { "cko-signature": ckoSignature(forged, "not-the-secret") });
  t.equal(refused.status, 401, "a signature that does not verify");
  t.same(await kept(`${eventId}_forged`), [], "nothing kept");
  t.equal((await service().client.getTransaction({ traceId })).transaction?.status, TransactionStatus.PENDING_ASYNC, "nothing changed");

  const body = JSON.stringify({ id: eventId, type: "payment_approved", data: { id: before!.transactionId, reference: String(traceId) } });
  const ok = await postHook("/webhooks/m-cko/cko-main", body, { "cko-signature": ckoSignature(body) });
  t.equal(ok.status, 200);
  t.equal(ok.text, "", "Checkout.com's empty acknowledgement");
  t.same(await kept(eventId), [{ outcome: "applied", applied: true }], "kept once, applied");
  t.equal((await service().client.getTransaction({ traceId })).transaction?.status, TransactionStatus.APPROVED);

  const again = await postHook("/webhooks/m-cko/cko-main", body, { "cko-signature": ckoSignature(body) });
  t.equal(again.status, 200, "a replay is acknowledged");
  t.equal((await kept(eventId)).length, 1, "and kept no second time");
});

t.test("refusals: an unknown merchant or account 404, a signed body not Checkout.com's 400", async (t) => {
  const body = JSON.stringify({ id: "evt_x", type: "payment_approved", data: {} });
  t.equal((await postHook("/webhooks/m-nobody/cko-main", body, { "cko-signature": ckoSignature(body) })).status, 404);
  t.equal((await postHook("/webhooks/m-cko/no-such", body, { "cko-signature": ckoSignature(body) })).status, 404);
  const list = "[1,2]";
  t.equal((await postHook("/webhooks/m-cko/cko-main", list, { "cko-signature": ckoSignature(list) })).status, 400);
});

t.test("Adyen: a signed notification is answered [accepted]", async (t) => {
  const item: Record<string, unknown> = {
    pspReference: `PSP${process.pid}0000000`,
    merchantAccountCode: ADYEN.merchant_account,
    merchantReference: "999999",
    amount: { value: 1050, currency: "EUR" },
    eventCode: "AUTHORISATION",
    success: "true",
  };
  item.additionalData = { hmacSignature: itemSignature(item, ADYEN.hmac_key) };
  const body = JSON.stringify({ live: "false", notificationItems: [{ NotificationRequestItem: item }] });
  const r = await postHook("/webhooks/m-adyen/adyen-eu", body, {});
  t.equal(r.status, 200);
  t.equal(r.text, "[accepted]");
  t.match(r.type, /^text\/plain/);
  t.same(await kept(`AUTHORISATION:${item.pspReference}::true`), [{ outcome: "no-attempt", applied: false }], "kept, though no attempt of ours");
});
