/**
 * The simulator's Adyen stand-in over HTTP, as the adyen connector reaches
 * it: Checkout API v71's paths, X-API-Key and the merchant account, Adyen's
 * test cards and refusal triggers (holder name, RequestedTestAcquirerResponseCode),
 * 3-D Secure by redirect to the challenge page and back with a
 * redirectResult for /payments/details, refunds whose outcome comes by
 * notification, Idempotency-Key, and standard notifications with Adyen's
 * per-item HMAC, sent until the receiver answers "[accepted]". The published
 * schemas' checks are in adyen-contract.test.ts.
 */
import { createHmac } from "node:crypto";
import t from "tap";
import { ADYEN, type Received, startDialectSim } from "../../../../../support/acquirer-sim-dialects.ts";

let nextRef = 1;
const payment = (number: string, over: Record<string, unknown> = {}, card: Record<string, unknown> = {}) => ({
  merchantAccount: ADYEN.merchant_account,
  reference: `ord-${nextRef++}`,
  amount: { currency: "EUR", value: 1000 },
  paymentMethod: { type: "scheme", number, expiryMonth: "03", expiryYear: "2030", cvc: "737", ...card },
  returnUrl: "https://shop.example/back?order=1",
  ...over,
});

type Item = Record<string, any>;
const item = (r: Received): Item => (r.body.notificationItems as { NotificationRequestItem: Item }[])[0].NotificationRequestItem;
const about = (psp: string, code?: string) => (r: Received) => {
  const i = item(r);
  return (i.pspReference === psp || i.originalReference === psp) && (code === undefined || i.eventCode === code);
};

/** Adyen's HMAC of an item, as a receiver checks it. */
function expectedSignature(i: Item): string {
  const fields = [
    i.pspReference,
    i.originalReference ?? "",
    i.merchantAccountCode,
    i.merchantReference,
    i.amount.value,
    i.amount.currency,
    i.eventCode,
    i.success,
  ];
  return createHmac("sha256", Buffer.from(ADYEN.hmac_key, "hex")).update(fields.join(":")).digest("base64");
}

t.test("X-API-Key picks the account, whose merchant account the body must name", async (t) => {
  const s = await startDialectSim(t);
  t.match(await s.adyen("/payments", payment("4111111145551142"), { "x-api-key": "wrong-key-0123456789" }), {
    status: 401,
    body: { status: 401, errorCode: "000", errorType: "security" },
  });
  t.match(await s.adyen("/payments", payment("4111111145551142", { merchantAccount: "Other" })), { status: 403, body: { errorCode: "901" } });
  t.match(await s.adyen("/payments", payment("4111111145551142", { reference: undefined })), {
    status: 422,
    body: { errorCode: "130", errorType: "validation", message: /reference/ },
  });
  t.match(await s.adyen("/payments", payment("4111111145551143")), { status: 422, body: { errorCode: "101" } });
});

t.test("a test card is Authorised; the AUTHORISATION notification is signed per item and sent until [accepted]", async (t) => {
  const s = await startDialectSim(t);
  let plain = 2;
  s.hooks.answer = () => (plain-- > 0 ? { status: 200, body: "ok" } : { status: 200, body: "[accepted]" });
  const body = payment("4111111145551142");
  const res = await s.adyen("/payments", body);
  t.match(res, {
    status: 200,
    body: {
      resultCode: "Authorised",
      merchantReference: body.reference,
      amount: { currency: "EUR", value: 1000 },
      paymentMethod: { brand: "visa", type: "scheme" },
    },
  });
  t.match(res.body.pspReference, /^[A-Z0-9]{16}$/);
  t.notOk("refusalReason" in res.body);
  const sent = await s.hooks.waitFor(about(res.body.pspReference), 3);
  t.equal(sent.length, 3, "a 200 without [accepted] is sent again");
  const i = item(sent[2]);
  t.match(sent[2].body, { live: "false" });
  t.match(i, {
    eventCode: "AUTHORISATION",
    success: "true",
    merchantAccountCode: ADYEN.merchant_account,
    merchantReference: body.reference,
    amount: { value: 1000, currency: "EUR" },
    paymentMethod: "visa",
  });
  t.match(i.reason, /^\d{6}:1142:03\/2030$/, "the reason holds the auth code, last four and expiry");
  t.equal(i.additionalData.hmacSignature, expectedSignature(i), "hmacSignature is Adyen's HMAC of the item");
  t.equal(sent[2].path, "/webhooks/m-test/adyen-eu");
});

t.test("refusals by holder name and by RequestedTestAcquirerResponseCode", async (t) => {
  const s = await startDialectSim(t);
  const cases: [Record<string, unknown>, Record<string, unknown>, string, string | undefined, string | undefined][] = [
    [{}, { holderName: "DECLINED" }, "Refused", "Refused", "2"],
    [{}, { holderName: "NOT_ENOUGH_BALANCE" }, "Refused", "Not enough balance", "12"],
    [{}, { holderName: "CARD_EXPIRED" }, "Refused", "Expired Card", "6"],
    [{}, { holderName: "ERROR" }, "Error", "Acquirer Error", "4"],
    [{}, { holderName: "FRAUD_CANCELLED" }, "Cancelled", "FRAUD-CANCELLED", "22"],
    [{ additionalData: { RequestedTestAcquirerResponseCode: "24" } }, {}, "Refused", "CVC Declined", "24"],
    [{}, { expiryYear: "2020" }, "Refused", "Expired Card", "6"],
    [{}, { holderName: "APPROVED" }, "Authorised", undefined, undefined],
  ];
  for (const [over, card, resultCode, reason, code] of cases) {
    const res = await s.adyen("/payments", payment("4111111111111111", over, card));
    t.match(
      res.body,
      { resultCode, ...(reason ? { refusalReason: reason, refusalReasonCode: code } : {}) },
      `${JSON.stringify({ ...over, ...card })}: ${resultCode} ${reason ?? ""}`,
    );
  }
  const refused = await s.adyen("/payments", payment("4111111111111111", {}, { holderName: "DECLINED" }));
  const [hook] = await s.hooks.waitFor(about(refused.body.pspReference));
  t.match(item(hook), { eventCode: "AUTHORISATION", success: "false", reason: "Refused" });
});

t.test("PENDING: Received, then the AUTHORISATION notification says authorised", async (t) => {
  const s = await startDialectSim(t);
  const res = await s.adyen("/payments", payment("4111111145551142", {}, { holderName: "PENDING" }));
  t.match(res.body, { resultCode: "Received" });
  const [hook] = await s.hooks.waitFor(about(res.body.pspReference));
  t.match(item(hook), { eventCode: "AUTHORISATION", success: "true" });
});

t.test("3-D Secure: RedirectShopper to the challenge page, back to the returnUrl with a redirectResult, then /payments/details", async (t) => {
  const s = await startDialectSim(t);
  for (const [button, resultCode, success] of [
    ["pass", "Authorised", "true"],
    ["fail", "Refused", "false"],
  ] as const) {
    const body = payment("4917610000000000");
    const res = await s.adyen("/payments", body);
    t.match(res.body, { resultCode: "RedirectShopper", action: { type: "redirect", method: "GET", paymentMethodType: "scheme" } });
    const url = res.body.action.url as string;
    t.match(url, new RegExp(`^${s.sim.url}/adyen/3ds/`));
    t.match(await (await fetch(url)).text(), /id="pass"/);
    const back = await fetch(url, { method: "POST", body: new URLSearchParams({ result: button }), redirect: "manual" });
    t.equal(back.status, 303);
    const location = new URL(back.headers.get("location") ?? "");
    t.equal(`${location.origin}${location.pathname}`, "https://shop.example/back");
    t.equal(location.searchParams.get("order"), "1", "the returnUrl's own query is kept");
    const redirectResult = location.searchParams.get("redirectResult") ?? "";
    t.ok(redirectResult.length > 20, "a redirectResult");
    const details = await s.adyen("/payments/details", { details: { redirectResult } });
    t.match(details, { status: 200, body: { resultCode, merchantReference: body.reference, pspReference: res.body.pspReference } }, `${button}: ${resultCode}`);
    if (button === "fail") t.match(details.body, { refusalReason: "3D Not Authenticated", refusalReasonCode: "11" });
    t.same((await s.adyen("/payments/details", { details: { redirectResult } })).body, details.body, "asked again, the same verdict");
    const [hook] = await s.hooks.waitFor(about(res.body.pspReference));
    t.match(item(hook), { eventCode: "AUTHORISATION", success });
  }
  t.match(await s.adyen("/payments/details", { details: { redirectResult: "not-one-of-ours" } }), { status: 422 });
  t.match(await s.adyen("/payments/details", {}), { status: 422, body: { errorCode: "130" } });
});

t.test("refunds: 201 received; REFUND success true, false when over the balance; REFUND_FAILED for 'refund failed'", async (t) => {
  const s = await startDialectSim(t);
  const paid = await s.adyen("/payments", payment("4111111145551142"));
  const psp = paid.body.pspReference as string;
  const refund = (value: number, reference?: string) =>
    s.adyen(`/payments/${psp}/refunds`, { merchantAccount: ADYEN.merchant_account, amount: { currency: "EUR", value }, reference });
  const r1 = await refund(600, "rf-1");
  t.match(r1, {
    status: 201,
    body: {
      status: "received",
      paymentPspReference: psp,
      pspReference: /^[A-Z0-9]{16}$/,
      merchantAccount: ADYEN.merchant_account,
      reference: "rf-1",
      amount: { value: 600 },
    },
  });
  const r2 = await refund(500);
  t.equal(r2.status, 201, "received, even when over what is left");
  const r3 = await refund(400);
  const hooks = await s.hooks.waitFor(about(psp, "REFUND"), 3);
  const byPsp = (p: string) => item(hooks.find((h) => item(h).pspReference === p) as Received);
  t.match(byPsp(r1.body.pspReference), { success: "true", originalReference: psp, merchantReference: "rf-1", amount: { value: 600 } });
  t.match(byPsp(r2.body.pspReference), { success: "false", reason: /exceeds/ });
  t.match(byPsp(r3.body.pspReference), { success: "true" });
  for (const h of hooks) t.equal(item(h).additionalData.hmacSignature, expectedSignature(item(h)), "signed with originalReference in the string");

  const failing = await s.adyen("/payments", payment("4111111145551142", {}, { holderName: "refund failed" }));
  t.match(failing.body, { resultCode: "Authorised" });
  const rf = await s.adyen(`/payments/${failing.body.pspReference}/refunds`, {
    merchantAccount: ADYEN.merchant_account,
    amount: { currency: "EUR", value: 1000 },
  });
  t.equal(rf.status, 201);
  const later = await s.hooks.waitFor(about(failing.body.pspReference), 3);
  t.same(
    later.map((h) => [item(h).eventCode, item(h).success]),
    [
      ["AUTHORISATION", "true"],
      ["REFUND", "true"],
      ["REFUND_FAILED", "true"],
    ],
  );
  t.match(await s.adyen("/payments/AAAAAAAAAAAAAAAA/refunds", { merchantAccount: ADYEN.merchant_account, amount: { currency: "EUR", value: 1 } }), {
    status: 422,
    body: { errorCode: "167" },
  });
});

t.test("Idempotency-Key: the first answer again (and the key echoed), a concurrent request refused 704", async (t) => {
  const s = await startDialectSim(t);
  const body = payment("4111111145551142");
  const first = await s.adyen("/payments", body, { "idempotency-key": "ik-1" });
  t.equal(first.headers.get("idempotency-key"), "ik-1", "the key is echoed");
  const again = await s.adyen("/payments", { ...body, amount: { currency: "EUR", value: 5 } }, { "idempotency-key": "ik-1" });
  t.same(again.body, first.body, "the first answer, whatever the body");
  const racing = payment("4111111145551142");
  const answers = await Promise.all(Array.from({ length: 6 }, () => s.adyen("/payments", racing, { "idempotency-key": "ik-race" })));
  t.equal(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.pspReference)).size, 1, "one payment");
  t.ok(
    answers.every((a) => a.status === 200 || (a.status === 422 && a.body.errorCode === "704" && a.headers.get("transient-error") === "true")),
    "the others refused as in progress",
  );
  await s.restart();
  t.same((await s.adyen("/payments", body, { "idempotency-key": "ik-1" })).body, first.body, "after a restart too");
});
