/**
 * A cardholder who fails 3-D Secure at a real acquirer ends declined with Cashier's own THREE_DS_FAILED (9004), as
 * after the simulators' check, whichever way the acquirer says it: Checkout.com's response code 20151 (an answer, a
 * webhook) or its payment's `3ds.authentication_response` N or R (the lookup after the customer's return, which
 * carries no response code); Adyen's refusal 11 "3D Not Authenticated" (a details answer by code, a notification by
 * its text). The acquirer's own code stays in the details. Other declines keep their codes.
 */
import t from "tap";
import { decide, type ProcessorOutcome } from "../../../../../engine/payments/domain/outcome.ts";
import { refusalOutcome, saleOutcome } from "../../../../../engine/payments/processors/adyen/transformers.ts";
import { toEvent } from "../../../../../engine/payments/processors/checkout/webhooks.ts";
import { codeOutcome, lookupOutcome, writeOutcome } from "../../../../../engine/payments/processors/checkout/transformers.ts";
import { ERROR_CODES } from "../../../../../engine/shared/errors.ts";

/** What a decline becomes for a sale that ends with it (the return from a challenge is the cascade's end). */
const decided = (o: ProcessorOutcome) => decide("sale", o, true);

t.test("Checkout.com: 20151 in an answer or a webhook is 9004, with Checkout's code kept", async (t) => {
  const answer = writeOutcome("sale", 201, {
    id: "pay_1",
    status: "Declined",
    response_code: "20151",
    response_summary: "Cardholder failed 3DS authentication",
  });
  t.match(answer, { threeDsFailed: true });
  const d = decided(answer);
  t.equal(d.to?.status, "declined");
  t.equal(d.errorCode, ERROR_CODES.THREE_DS_FAILED);
  t.equal(d.processorCode, "20151", "Checkout's own code kept");
  t.match(d.errorDetails, /^20151 Cardholder failed 3DS authentication/);

  const event = toEvent({ id: "evt_1", type: "payment_declined", data: { id: "pay_1", reference: "42", response_code: "20151" } });
  t.equal(decided(event.outcome!).errorCode, ERROR_CODES.THREE_DS_FAILED, "the payment_declined webhook says the same");
});

t.test("Checkout.com: the lookup after the return knows it by the payment's 3ds.authentication_response", async (t) => {
  for (const response of ["N", "R"]) {
    const o = lookupOutcome(200, { id: "pay_2", status: "Declined", approved: false, "3ds": { enrolled: "Y", authentication_response: response } });
    t.equal(decided(o).errorCode, ERROR_CODES.THREE_DS_FAILED, `authentication_response ${response}`);
  }
  // Passed, then declined by the issuer (or no 3-D Secure data at all): not a 3-D Secure failure.
  for (const threeDs of [{ enrolled: "Y", authentication_response: "Y" }, { enrolled: "Y", authentication_response: "U" }, undefined]) {
    const o = lookupOutcome(200, { id: "pay_3", status: "Declined", approved: false, ...(threeDs ? { "3ds": threeDs } : {}) });
    t.equal(decided(o).errorCode, ERROR_CODES.PROCESSOR_DECLINED_OTHER, `3ds ${JSON.stringify(threeDs)}: Checkout's decline`);
    t.notOk("threeDsFailed" in o);
  }
  t.equal(lookupOutcome(200, { id: "pay_4", status: "Authorized", "3ds": { authentication_response: "N" } }).kind, "approved", "an approval is an approval");
});

t.test("Checkout.com: another code keeps its own meaning", async (t) => {
  const insufficient = codeOutcome("pay_5", "20051", "Insufficient Funds");
  t.notOk("threeDsFailed" in insufficient);
  t.equal(decided(insufficient).errorCode, ERROR_CODES.PROCESSOR_DECLINED_OTHER);
});

t.test("Adyen: refusal 11, by code or by a notification's text, is 9004; another refusal is not", async (t) => {
  const details = saleOutcome("details", {
    http: 200,
    body: { pspReference: "PSP1", resultCode: "Refused", refusalReasonCode: "11", refusalReason: "3D Not Authenticated" },
  });
  t.match(details, { kind: "declined", threeDsFailed: true });
  const d = decided(details);
  t.equal(d.errorCode, ERROR_CODES.THREE_DS_FAILED);
  t.equal(d.processorCode, "adyen-11", "Adyen's own code kept");
  t.equal(decided(refusalOutcome("Refused", "", "3D Not Authenticated", "PSP2")).errorCode, ERROR_CODES.THREE_DS_FAILED, "by the text alone");
  const balance = refusalOutcome("Refused", "12", "Not enough balance", "PSP3");
  t.notOk("threeDsFailed" in balance);
  t.equal(decided(balance).errorCode, ERROR_CODES.PROCESSOR_DECLINED_OTHER);
});

t.test("a 3-D Secure failure in the middle of a cascade is still 9004 on the attempt that goes on", async (t) => {
  const soft: ProcessorOutcome = { kind: "retryable", transactionId: "x", code: "20151", message: "Cardholder failed 3DS authentication", threeDsFailed: true };
  const d = decide("sale", soft, false);
  t.equal(d.to?.status, "declined_retry");
  t.equal(d.errorCode, ERROR_CODES.THREE_DS_FAILED);
});
