/**
 * Every kind of answer and notification the Adyen stand-in gives, checked
 * against Adyen's published schemas (test/contracts/adyen: Checkout API v71
 * and the standard notifications, as Adyen publishes them).
 */
import t, { type Test } from "tap";
import { checkCheckout, checkNotification, schemaOf } from "../../../../../contracts/adyen/schemas.ts";
import { ADYEN, type Received, startDialectSim } from "../../../../../support/acquirer-sim-dialects.ts";

let nextRef = 1;
const payment = (number: string, card: Record<string, unknown> = {}) => ({
  merchantAccount: ADYEN.merchant_account,
  reference: `a-${nextRef++}`,
  amount: { currency: "EUR", value: 1000 },
  paymentMethod: { type: "scheme", number, expiryMonth: "03", expiryYear: "2030", cvc: "737", ...card },
  returnUrl: "https://shop.example/back",
});

function conforms(t: Test, schema: string, value: unknown, what: string): void {
  const v = checkCheckout(schema, value);
  t.ok(v.ok, `${what}: a valid ${schema}`, { errors: v.errors });
}

t.test("answers and notifications match Adyen's schemas", async (t) => {
  const s = await startDialectSim(t);
  const paymentAnswer = schemaOf("/payments", 200);
  const authorised = await s.adyen("/payments", payment("4111111145551142"));
  conforms(t, paymentAnswer, authorised.body, "Authorised");
  conforms(t, paymentAnswer, (await s.adyen("/payments", payment("4111111145551142", { holderName: "DECLINED" }))).body, "Refused");
  conforms(t, paymentAnswer, (await s.adyen("/payments", payment("4111111145551142", { holderName: "ERROR" }))).body, "Error");
  conforms(t, paymentAnswer, (await s.adyen("/payments", payment("4111111145551142", { holderName: "PENDING" }))).body, "Received");
  const redirect = await s.adyen("/payments", payment("4917610000000000"));
  conforms(t, paymentAnswer, redirect.body, "RedirectShopper");
  const back = await fetch(redirect.body.action.url, { method: "POST", body: new URLSearchParams({ result: "pass" }), redirect: "manual" });
  const redirectResult = new URL(back.headers.get("location") ?? "").searchParams.get("redirectResult");
  conforms(t, schemaOf("/payments/details", 200), (await s.adyen("/payments/details", { details: { redirectResult } })).body, "details");
  const refund = await s.adyen(`/payments/${authorised.body.pspReference}/refunds`, {
    merchantAccount: ADYEN.merchant_account,
    amount: { currency: "EUR", value: 100 },
  });
  conforms(t, schemaOf("/payments/{paymentPspReference}/refunds", 201), refund.body, "refund");
  const failing = await s.adyen("/payments", payment("4111111145551142", { holderName: "refund failed" }));
  await s.adyen(`/payments/${failing.body.pspReference}/refunds`, { merchantAccount: ADYEN.merchant_account, amount: { currency: "EUR", value: 1000 } });
  for (const [status, answer] of [
    [401, await s.adyen("/payments", payment("4111111145551142"), { "x-api-key": "not-a-key-0123" })],
    [403, await s.adyen("/payments", { ...payment("4111111145551142"), merchantAccount: "Other" })],
    [422, await s.adyen("/payments", { ...payment("4111111145551142"), reference: undefined })],
  ] as const) {
    t.equal(answer.status, status);
    conforms(t, "ServiceError", answer.body, `HTTP ${status}`);
  }

  const hooks = await s.hooks.waitFor((r: Received) => Array.isArray(r.body.notificationItems), 9);
  const codes = new Set<string>();
  for (const h of hooks) {
    const code = (h.body.notificationItems as { NotificationRequestItem: { eventCode: string } }[])[0].NotificationRequestItem.eventCode;
    codes.add(code);
    const v = checkNotification(code, h.body);
    t.ok(v.ok, `notification ${code}: valid`, { errors: v.errors });
  }
  t.same([...codes].sort(), ["AUTHORISATION", "REFUND", "REFUND_FAILED"], "each event code was sent");
});
