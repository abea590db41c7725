/**
 * Checkout.com's webhooks: the Cko-Signature check (HMAC-SHA256 of the raw
 * body under the webhook action's key, hex-encoded, as Checkout documents it)
 * and the events of its documented examples, read through the lookup table.
 */
import { createHmac } from "node:crypto";
import t from "tap";
import { checkout } from "../../../../../../engine/payments/processors/checkout/index.ts";
import { PAYMENT_EVENTS, parseEvents, REFUND_EVENTS, verifySignature } from "../../../../../../engine/payments/processors/checkout/webhooks.ts";
import { eventTypes, webhook } from "../../../../../fixtures/checkout/load.ts";

const secret = "whsec-cko-test-5e3f";
const credentials = { secret_key: "sk_sbox_x", webhook_secret: secret };
/** Checkout.com's documented method: HMAC-SHA256 of the body as sent, keyed by the webhook's signature key, Base16. */
const sign = (raw: Buffer, key = secret) => createHmac("sha256", key).update(raw).digest("hex");

t.test("a signature made by Checkout.com's documented method verifies; anything else does not", async (t) => {
  const raw = Buffer.from(JSON.stringify(webhook("payment-approved").event));
  t.ok(verifySignature(raw, { "cko-signature": sign(raw) }, credentials), "the signature of the raw body");
  t.ok(verifySignature(raw, { "Cko-Signature": sign(raw).toUpperCase() }, credentials), "the header by any case, hex in either case");
  const changed = Buffer.from(raw);
  changed[changed.length - 2] ^= 1;
  t.notOk(verifySignature(changed, { "cko-signature": sign(raw) }, credentials), "a changed byte");
  t.notOk(verifySignature(raw, { "cko-signature": sign(raw, "another-key") }, credentials), "a wrong secret");
  t.notOk(verifySignature(raw, {}, credentials), "no header");
  t.notOk(verifySignature(raw, { "cko-signature": undefined }, credentials), "an empty header");
  t.notOk(verifySignature(raw, { "cko-signature": sign(raw).slice(0, 62) }, credentials), "a short signature");
  t.notOk(verifySignature(raw, { "cko-signature": `${sign(raw)}00` }, credentials), "a long one");
  t.notOk(verifySignature(raw, { "cko-signature": "z".repeat(64) }, credentials), "not hex");
  t.notOk(verifySignature(raw, { "cko-signature": sign(raw, "") }, { secret_key: "sk_sbox_x" }), "an account without a webhook_secret verifies nothing");
  const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString()), null, 1));
  t.notOk(verifySignature(reserialised, { "cko-signature": sign(raw) }, credentials), "the raw body, never a re-serialised one");
  t.equal(checkout.webhooks?.verify, verifySignature, "the module's verifier");
});

t.test("during a key rotation the previous secret (webhook_secret_previous) verifies too", async (t) => {
  const raw = Buffer.from(JSON.stringify(webhook("payment-approved").event));
  const rotating = { secret_key: "sk_sbox_x", webhook_secret: "whsec-cko-new-9a1b", webhook_secret_previous: secret };
  t.notOk(verifySignature(raw, { "cko-signature": sign(raw) }, { ...rotating, webhook_secret_previous: "" }), "the new secret alone refuses the old signature");
  t.ok(verifySignature(raw, { "cko-signature": sign(raw) }, rotating), "signed with the previous secret");
  t.ok(verifySignature(raw, { "cko-signature": sign(raw, "whsec-cko-new-9a1b") }, rotating), "signed with the new one");
  t.notOk(verifySignature(raw, { "cko-signature": sign(raw, "a-third-key") }, rotating), "with neither");
  t.same(checkout.optionalCredentials, ["webhook_secret_previous"]);
});

const body = (name: string) => Buffer.from(JSON.stringify(webhook(name).event));

t.test("the documented examples become events, through the same table as a lookup", async (t) => {
  t.same(parseEvents(body("payment-approved")), [
    {
      id: "evt_pwhgncrvd3julmuutcoz4deu2u",
      type: "payment_approved",
      flow: "sale",
      transactionId: "pay_uqw2tkfecmnebhtt23fv6nbxka",
      outcome: { kind: "approved", transactionId: "pay_uqw2tkfecmnebhtt23fv6nbxka" },
      amount: { minor: 100, currency: "USD" },
    },
  ]);
  t.same(parseEvents(body("payment-refunded")), [
    {
      id: "evt_rmbwhvwacc7u5iczmz2tdcogum",
      type: "payment_refunded",
      flow: "refund",
      transactionId: "act_7fmebms4rtmuja2poigylogjk4",
      outcome: { kind: "approved", transactionId: "act_7fmebms4rtmuja2poigylogjk4" },
      amount: { minor: 200, currency: "GBP" },
    },
  ]);
  t.match(parseEvents(body("payment-refund-declined")), [
    {
      type: "payment_refund_declined",
      flow: "refund",
      transactionId: "act_rzy3fxofo3lufmjzaismfzjiae",
      outcome: { kind: "retryable", code: "20006", message: "Error / Invalid Request Parameters" },
    },
  ]);
  t.match(parseEvents(body("payment-refund-pending")), [{ flow: "refund", outcome: { kind: "pending", transactionId: "act_wn4emh2jhu5efoz5ghl3bui4zq" } }]);
  t.match(parseEvents(body("payment-canceled")), [
    { flow: "sale", transactionId: "pay_wtdnbqr2oarebnxeudvehbnrki", outcome: { kind: "declined", code: "Canceled" } },
  ]);
  t.match(parseEvents(body("payout-declined")), [
    { flow: "payout", transactionId: "pay_3tg7yzq34lmmpdn2exmgjm4fvm", outcome: { kind: "retryable", code: "20005", message: "Declined - Do Not Honour" } },
  ]);
  t.match(parseEvents(body("payout-paid")), [{ flow: "payout", transactionId: "pay_g2fmfh6hwj4eho5lm7jrxu4pne", outcome: { kind: "approved" } }]);
});

t.test("our trace_id comes back as the reference", async (t) => {
  const e = structuredClone(webhook("payment-approved").event);
  e.data.reference = "4101";
  t.match(parseEvents(Buffer.from(JSON.stringify(e))), [{ traceId: 4101, flow: "sale" }]);
  for (const reference of ["ORD-5023-4E89", "0", "12345678901234567890", ""]) {
    e.data.reference = reference;
    t.notOk("traceId" in parseEvents(Buffer.from(JSON.stringify(e)))[0], `"${reference}" is not a trace_id`);
  }
});

/** The 2.0 event types Cashier keeps without applying: none of them is a sale's, payout's or refund's answer. */
const KEPT_ONLY = [
  "card_verification_declined",
  "card_verified",
  "dispute_canceled",
  "dispute_evidence_required",
  "dispute_expired",
  "dispute_lost",
  "dispute_resolved",
  "dispute_won",
  "payment_capture_declined", // the authorisation stands; an operator's question, not the attempt's answer
  "payment_capture_pending",
  "payment_chargeback",
  "payment_retrieval",
  "payment_void_declined",
  "source_updated",
];

t.test("every event type Checkout.com lists is read, or kept without an outcome on purpose", async (t) => {
  const { event_types } = eventTypes();
  for (const type of event_types) {
    const read = Object.hasOwn(PAYMENT_EVENTS, type) || Object.hasOwn(REFUND_EVENTS, type);
    t.not(read, KEPT_ONLY.includes(type), `${type}: ${read ? "read" : "kept only"}`);
    if (read) continue;
    const [e] = parseEvents(Buffer.from(JSON.stringify({ id: "evt_x", type, data: { id: "pay_x", reference: "4101" } })));
    t.same(e, { id: "evt_x", type, traceId: 4101 }, `${type}: stored and acknowledged, nothing applied`);
  }
});

t.test("a body that is not Checkout.com's event is refused, naming why", async (t) => {
  t.throws(() => parseEvents(Buffer.from("not json")), /must be JSON/);
  t.throws(() => parseEvents(Buffer.from("[]")), /must be an event object/);
  t.throws(() => parseEvents(Buffer.from('{"type":"payment_approved","data":{}}')), /needs its id and type/);
  t.same(parseEvents(Buffer.from('{"id":"evt_x","type":"payment_approved"}')), [{ id: "evt_x", type: "payment_approved" }], "no payment id: nothing to apply");
});
