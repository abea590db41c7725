/**
 * The Virtual Terminal's request as the engine reads it: TakeMotoPaymentRequest mapped to the use case's form (every
 * member carried, missing ones empty for Process's rules to name), the order a form key names, and the console's own
 * faults of the form (the reason, the key) named by field before any payment rule.
 */
import { create } from "@bufbuild/protobuf";
import t from "tap";
import { TakeMotoPaymentRequestSchema } from "../../../../../gen/cashier/admin/v1/console_money_service_pb.js";
import { motoFormFaults, motoOrderId } from "../../../../../engine/console/app/virtual-terminal.ts";
import { motoFormOf } from "../../../../../engine/console/rpc/money-mappers.ts";

t.test("the request maps member for member; the amount is the one already checked", async (t) => {
  const req = create(TakeMotoPaymentRequestSchema, {
    merchantId: "m-plat",
    frontend: "plat-usd",
    amount: { amountMinor: 2500n, currency: "USD" },
    customer: {
      pin: "p-1",
      email: "a@example.com",
      firstName: "Mia",
      lastName: "Phone",
      country: "DE",
      phone: "4930123",
      city: "Berlin",
      requesterIp: "203.0.113.9",
    },
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
    reason: "call ref 1",
    requestId: "form-key-0001",
  });
  const form = motoFormOf(req, 2500);
  t.same(form, {
    merchantId: "m-plat",
    frontend: "plat-usd",
    amountMinor: 2500,
    currency: "USD",
    customer: {
      pin: "p-1",
      email: "a@example.com",
      firstName: "Mia",
      lastName: "Phone",
      dob: "",
      phone: "4930123",
      address: "",
      city: "Berlin",
      country: "DE",
      state: "",
      zip: "",
    },
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
    reason: "call ref 1",
    requestId: "form-key-0001",
  });
  t.notOk("requesterIp" in form.customer, "an operator's browser is not the customer's: no IP address is taken");
});

t.test("a request without customer, card or currency maps to empty members, for the rules to name", async (t) => {
  const form = motoFormOf(create(TakeMotoPaymentRequestSchema, { merchantId: "m-plat" }), 1);
  t.equal(form.currency, "");
  t.same(form.card, { number: "", cvv: "", expiry: "" });
  t.ok(Object.values(form.customer).every((v) => v === ""));
});

t.test("the form's own faults: reason and request_id, named by field", async (t) => {
  t.same(motoFormFaults({ reason: "call ref 1", requestId: "form-key-0001" }), []);
  t.match(motoFormFaults({ reason: "  ", requestId: "form-key-0001" }), [{ field: "reason" }]);
  t.match(motoFormFaults({ reason: "card 4111 1111 1111 1111", requestId: "form-key-0001" }), [{ field: "reason", description: /card number/ }]);
  t.match(motoFormFaults({ reason: "ok", requestId: "short" }), [{ field: "request_id" }]);
  t.match(motoFormFaults({ reason: "ok", requestId: "has space in it" }), [{ field: "request_id" }]);
  t.equal(motoOrderId("form-key-0001"), "bo-moto-form-key-0001");
});
