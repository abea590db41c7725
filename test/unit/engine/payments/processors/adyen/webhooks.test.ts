/**
 * Adyen's standard notifications: the HMAC signature reproduces the test
 * vectors of Adyen's own Node library (src/__tests__/hmacValidator.spec.ts at
 * commit 3b84a188ef071064636a19f53f95f8aa7112dd91), and fails on a changed
 * signed field, a wrong key, a missing or malformed signature; the recorded
 * notifications (test/fixtures/adyen/notifications/) read as the events the
 * status table says; the acknowledgement is Adyen's.
 */
import { readdirSync, readFileSync } from "node:fs";
import t from "tap";
import type { WebhookEvent } from "../../../../../../engine/payments/processors/connector.ts";
import { adyen } from "../../../../../../engine/payments/processors/adyen/index.ts";
import { itemSignature, parseNotification, signedData } from "../../../../../../engine/payments/processors/adyen/webhooks.ts";

// The Node library's test key and its notification item.
const KEY = "DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00";
const vectorItem = (eventCode: string, hmacSignature?: string): Record<string, any> => ({
  pspReference: "pspReference",
  originalReference: "originalReference",
  merchantAccountCode: "merchantAccount",
  merchantReference: "reference",
  amount: { currency: "EUR", value: 1000 },
  eventCode,
  eventDate: "2019-09-21T11:45:24.637Z",
  paymentMethod: "VISA",
  reason: "reason",
  success: "true",
  additionalData: hmacSignature === undefined ? {} : { hmacSignature },
});
const body = (...items: Record<string, any>[]) =>
  Buffer.from(JSON.stringify({ live: "false", notificationItems: items.map((i) => ({ NotificationRequestItem: i })) }));
/** `hmacKey` null: an account without one. */
const verify = (raw: Buffer, hmacKey: string | null = KEY) => adyen.webhooks!.verify(raw, {}, hmacKey === null ? {} : { hmac_key: hmacKey });

t.test("the signature reproduces Adyen's Node library test vectors", async (t) => {
  t.equal(
    signedData(vectorItem("REPORT_AVAILABLE")),
    "pspReference:originalReference:merchantAccount:reference:1000:EUR:REPORT_AVAILABLE:true",
    "the signed string",
  );
  t.equal(itemSignature(vectorItem("REPORT_AVAILABLE"), KEY), "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=", "the library's expectedSign");
  t.equal(itemSignature(vectorItem("EVENT"), KEY), "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc=", "its second notification item vector");
  t.ok(verify(body(vectorItem("REPORT_AVAILABLE", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE="))), "a body carrying it verifies");
  t.ok(verify(body(vectorItem("EVENT", "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc="))));
  t.ok(verify(body(vectorItem("REPORT_AVAILABLE", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=")), KEY.toLowerCase()), "the hex key in either case");
  const noOriginal = { ...vectorItem("AUTHORISATION"), originalReference: undefined };
  t.equal(signedData(noOriginal), "pspReference::merchantAccount:reference:1000:EUR:AUTHORISATION:true", "a missing field signs as empty");
  const colon = { ...vectorItem("AUTHORISATION"), merchantReference: "order:1\\2" };
  t.equal(
    signedData(colon),
    "pspReference:originalReference:merchantAccount:order:1\\2:1000:EUR:AUTHORISATION:true",
    "values are joined unescaped, as Adyen's libraries do",
  );
});

t.test("a changed field, a wrong key, a missing or malformed signature fail", async (t) => {
  const good = vectorItem("REPORT_AVAILABLE", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=");
  const changes: [what: string, item: Record<string, any>][] = [
    ["pspReference", { ...good, pspReference: "pspReference2" }],
    ["originalReference", { ...good, originalReference: "other" }],
    ["merchantAccountCode", { ...good, merchantAccountCode: "AnotherMerchant" }],
    ["merchantReference", { ...good, merchantReference: "reference2" }],
    ["amount.value", { ...good, amount: { currency: "EUR", value: 100000 } }],
    ["amount.currency", { ...good, amount: { currency: "USD", value: 1000 } }],
    ["eventCode", { ...good, eventCode: "AUTHORISATION" }],
    ["success", { ...good, success: "false" }],
  ];
  for (const [what, item] of changes) t.notOk(verify(body(item)), `a changed ${what}: refused`);
  t.ok(verify(body({ ...good, reason: "changed", eventDate: "2020-01-01T00:00:00Z" })), "fields Adyen does not sign may change");
  t.notOk(verify(body(good), "11223344D785FBAE710E7F943F307971BB61B21281C98C9129B3D4018A57B2EB"), "a wrong key: refused");
  t.notOk(verify(body(vectorItem("REPORT_AVAILABLE"))), "no hmacSignature: refused");
  t.notOk(verify(body({ ...good, additionalData: { hmacSignature: "" } })), "an empty signature: refused");
  t.notOk(verify(body({ ...good, additionalData: undefined })), "no additionalData: refused");
  t.notOk(
    verify(body({ ...good, additionalData: { hmacSignature: "A".repeat(44) } })),
    "a signature of the right length that decodes to other bytes: refused, not thrown",
  );
  t.notOk(verify(body({ ...good, additionalData: { hmacSignature: "notValidSign" } })), "the library's notValidSign: refused");
  t.notOk(verify(body(good), null), "an account without hmac_key: refused");
  t.notOk(verify(body(good), "not-hex"), "a key that is not hex: refused");
  t.notOk(verify(body(good, vectorItem("EVENT", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE="))), "one bad item among good ones: refused");
  t.notOk(verify(Buffer.from("not json")), "a body that is not JSON: refused");
  t.notOk(verify(Buffer.from(JSON.stringify({ live: "false", notificationItems: [] }))), "no items: nothing authenticates it");
});

interface Recorded {
  source: string;
  event: string;
  body: any;
}
const dir = new URL("../../../../../fixtures/adyen/notifications/", import.meta.url);
const recorded = (name: string): Recorded => JSON.parse(readFileSync(new URL(`${name}.json`, dir), "utf8"));

/** Recorded notification -> the event it must give. */
const EVENTS: [name: string, event: Partial<WebhookEvent>][] = [
  [
    "authorisation-docs",
    { type: "AUTHORISATION", flow: "sale", transactionId: "QFQTPCQ8HXSKGK82", outcome: { kind: "approved", transactionId: "QFQTPCQ8HXSKGK82" } },
  ],
  ["authorisation-true-node", { type: "AUTHORISATION", flow: "sale", transactionId: "123456789", outcome: { kind: "approved", transactionId: "123456789" } }],
  ["cancellation-docs", { type: "CANCELLATION", flow: "sale", transactionId: "9913140798220028", outcome: undefined }],
  ["capture-docs", { type: "CAPTURE", flow: "sale", outcome: undefined }],
  ["capture-true-node", { type: "CAPTURE", flow: "sale", transactionId: "ORIGINAL_PSP", outcome: undefined }],
  ["capture-false-node", { type: "CAPTURE", flow: "sale", transactionId: "ORIGINAL_PSP", outcome: undefined }],
  ["capture-failed-docs", { type: "CAPTURE_FAILED", flow: "sale", transactionId: "9913140798220028", outcome: undefined }],
  [
    "offer-closed-docs",
    { type: "OFFER_CLOSED", flow: "sale", transactionId: "QFQTPCQ8HXSKGK82", outcome: { kind: "declined", code: "adyen-offer-closed" } as any },
  ],
  [
    "refund-docs",
    {
      type: "REFUND",
      flow: "refund",
      transactionId: "QFQTPCQ8HXSKGK82",
      outcome: { kind: "declined", code: "adyen-refused", message: "Transaction hasn't been captured, refund not possible" } as any,
    },
  ],
  ["refund-true-node", { type: "REFUND", flow: "refund", transactionId: "PSP_REFERENCE", outcome: { kind: "approved", transactionId: "PSP_REFERENCE" } }],
  ["refund-false-node", { type: "REFUND", flow: "refund", outcome: { kind: "declined", message: "Insufficient balance on payment" } as any }],
  [
    "refund-failed-docs",
    { type: "REFUND_FAILED", flow: "refund", outcome: { kind: "declined", code: "adyen-refund-failed", message: "Refund Failed" } as any },
  ],
  ["refunded-reversed-docs", { type: "REFUNDED_REVERSED", flow: "refund", outcome: { kind: "declined", code: "adyen-refunded-reversed" } as any }],
];

t.test("every recorded notification reads as the event the table says", async (t) => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  t.same(EVENTS.map(([n]) => `${n}.json`).sort(), files.sort(), "every recorded notification has its expected event");
  for (const [name, expected] of EVENTS) {
    const events = parseNotification(Buffer.from(JSON.stringify(recorded(name).body)));
    t.equal(events.length, 1, `${name}: one item, one event`);
    t.match(events[0], expected, `${name}: ${expected.type} -> ${expected.outcome?.kind ?? "kept, not applied"}`);
    if (expected.outcome === undefined) t.notOk(events[0].outcome, `${name}: nothing to apply`);
  }
  const item = recorded("refund-true-node").body.notificationItems[0].NotificationRequestItem;
  t.equal(
    parseNotification(Buffer.from(JSON.stringify(recorded("refund-true-node").body)))[0].id,
    "REFUND:PSP_REFERENCE:ORIGINAL_PSP:true",
    "the id: eventCode, pspReference, originalReference, success",
  );
  t.equal(item.merchantReference, "payment-2017-1-17-11-refund", "a reference that is not a trace_id...");
  t.equal(parseNotification(Buffer.from(JSON.stringify(recorded("refund-true-node").body)))[0].traceId, undefined, "...gives none");
});

t.test("recorded notifications, signed with the library's test key, verify and read alike", async (t) => {
  // The fixtures' own signatures are under keys Adyen does not publish: each item is signed again with the test key.
  for (const [name] of EVENTS) {
    const b = structuredClone(recorded(name).body);
    for (const w of b.notificationItems) {
      const item = w.NotificationRequestItem;
      item.additionalData = { ...item.additionalData, hmacSignature: itemSignature(item, KEY) };
    }
    const raw = Buffer.from(JSON.stringify(b));
    t.ok(verify(raw), `${name}: verifies`);
    b.notificationItems[0].NotificationRequestItem.amount.value += 1;
    t.notOk(verify(Buffer.from(JSON.stringify(b))), `${name}: and not once its amount is changed`);
  }
});

t.test("notification items -> events", async (t) => {
  const item = (over: Record<string, any>) => ({ ...vectorItem("AUTHORISATION"), merchantReference: "100245", ...over });
  const [approved] = parseNotification(body(item({ pspReference: "PSP7", originalReference: undefined })));
  t.match(approved, {
    id: "AUTHORISATION:PSP7::true",
    type: "AUTHORISATION",
    flow: "sale",
    transactionId: "PSP7",
    traceId: 100245,
    outcome: { kind: "approved" },
  });
  const [cvc] = parseNotification(body(item({ success: "false", reason: "CVC Declined" })));
  t.match(cvc.outcome, { kind: "declined", code: "adyen-24" }, "a failed AUTHORISATION: its reason text through the code table");
  const [issuer] = parseNotification(body(item({ success: "false", reason: "Issuer Unavailable" })));
  t.match(issuer.outcome, { kind: "retryable", code: "adyen-9" }, "a soft one is retryable");
  const [accepted] = parseNotification(body(item({})));
  t.not(cvc.id, accepted.id, "a changed verdict of the same payment is another event, not a repeat");
  const [again] = parseNotification(body(item({ pspReference: "PSP7", originalReference: undefined })));
  t.equal(again.id, approved.id, "the same item sent again is the same event");
  const [report] = parseNotification(body(vectorItem("REPORT_AVAILABLE")));
  t.same(
    report,
    {
      id: "REPORT_AVAILABLE:pspReference:originalReference:true",
      type: "REPORT_AVAILABLE",
      accountCode: "merchantAccount",
      amount: { minor: 1000, currency: "EUR" },
    },
    "an event code Cashier does not apply is kept, with no flow or outcome",
  );
  t.match(approved, { accountCode: "merchantAccount", amount: { minor: 1000, currency: "EUR" } }, "the account and amount, to check against the attempt's");
  const [noAmount] = parseNotification(body(item({ amount: { currency: "EUR", value: "1000" } })));
  t.equal(noAmount.amount, undefined, "an amount that is not a number is not read as one");
  const [big] = parseNotification(body(item({ merchantReference: "8313842560770001" })));
  t.equal(big.traceId, undefined, "a reference beyond a safe trace_id gives none");
  t.equal(parseNotification(body(item({}), item({ pspReference: "PSP8" }))).length, 2, "every item of the body");
});

t.test("during a key rotation the previous HMAC key (hmac_key_previous) verifies too", async (t) => {
  const NEW = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056";
  const signedWithOld = body(vectorItem("REPORT_AVAILABLE", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE="));
  const rotating = (current: string, previous?: string) => ({ hmac_key: current, ...(previous ? { hmac_key_previous: previous } : {}) });
  t.notOk(adyen.webhooks!.verify(signedWithOld, {}, rotating(NEW)), "the new key alone refuses an item signed with the old one");
  t.ok(adyen.webhooks!.verify(signedWithOld, {}, rotating(NEW, KEY)), "with the old one as hmac_key_previous it verifies");
  t.ok(adyen.webhooks!.verify(signedWithOld, {}, rotating(KEY, NEW)), "and the current key still does");
  t.notOk(adyen.webhooks!.verify(signedWithOld, {}, rotating(NEW, "not-hex")), "a previous key that is not hex is no key");
  const newItem = { ...vectorItem("EVENT"), pspReference: "PSP9" };
  const mixed = body(vectorItem("REPORT_AVAILABLE", "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE="), {
    ...newItem,
    additionalData: { hmacSignature: itemSignature(newItem, NEW) },
  });
  t.ok(adyen.webhooks!.verify(mixed, {}, rotating(NEW, KEY)), "a batch with items under either key verifies");
  t.notOk(adyen.webhooks!.verify(mixed, {}, rotating(NEW)), "but not without the old key");
  t.same(adyen.optionalCredentials, ["hmac_key_previous"], "the rotation's credential, optional");
});

t.test("the account's own code, which notification items name", async (t) => {
  t.equal(adyen.webhooks!.accountCode!({ merchant_account: "ShopEU" }), "ShopEU");
  t.equal(adyen.webhooks!.accountCode!({}), undefined, "settings its schema refuses name none");
});

t.test("a body that is not Adyen's format is refused, naming the fault", async (t) => {
  t.throws(() => parseNotification(Buffer.from("<xml/>")), /not JSON/);
  t.throws(() => parseNotification(Buffer.from("{}")), /notificationItems: an array is required/);
  t.throws(
    () => parseNotification(Buffer.from(JSON.stringify({ notificationItems: [{}] }))),
    /notificationItems\[0\]: a NotificationRequestItem with eventCode and pspReference/,
  );
});

t.test("the acknowledgement Adyen expects", async (t) => {
  t.same(adyen.webhooks!.acknowledgement, { contentType: "text/plain", body: "[accepted]" });
});
