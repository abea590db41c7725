/**
 * The session start's pure rules: limits compared exactly in the wire's unit
 * and shown in minor units rounded inward, locales, and the table of
 * CONTRACT 9 by field.
 */
import t from "tap";
import {
  compareToWire,
  limitProblem,
  localeProblem,
  validateSessionStart,
  wireLimitToMinor,
  type SessionStartInput,
} from "../../../../../engine/cashier/domain/hosted-session.ts";
import { DEFAULT_FRONTEND_SETTINGS } from "../../../../../engine/payments/domain/frontend-settings.ts";

const frontend = {
  name: "f",
  baseCurrency: "USD",
  currencies: ["USD", "BHD", "JPY"],
  settings: { ...DEFAULT_FRONTEND_SETTINGS, limits: { USD: { depositMin: 500, withdrawalMax: 20_000 }, BHD: { depositMax: 5 } } },
};
const now = new Date("2026-06-01T00:00:00Z");
const input = (over: Partial<SessionStartInput> = {}): SessionStartInput => ({
  merchantId: "m",
  intent: "deposit",
  frontend: "f",
  currency: "USD",
  amountMinor: undefined,
  balanceMinor: undefined,
  customer: {
    pin: "p",
    email: "a@example.com",
    firstName: "A",
    lastName: "B",
    dob: "",
    phone: "",
    address: "",
    city: "",
    country: "GB",
    state: "",
    zip: "",
    requesterIp: "",
  },
  locale: "",
  returnUrl: "https://m.example/r",
  notificationUrl: "",
  orderId: "",
  scOrderId: "",
  udef1: "",
  udef2: "",
  timestamp: 1,
  version: "1.0",
  ...over,
});
const fields = (i: SessionStartInput) => validateSessionStart(i, { frontend, now }).map((v) => v.field);

t.test("limits in the wire's unit, compared exactly", async (t) => {
  t.equal(compareToWire(5000, 5, "BHD"), 0, "BHD 5.000 is the wire's 5");
  t.equal(compareToWire(5001, 5, "BHD"), 1);
  t.equal(compareToWire(1000, 1000, "JPY"), 0);
  t.equal(wireLimitToMinor(150, "ISK", "up"), 2, "ISK 1.50 rounds a minimum up");
  t.equal(wireLimitToMinor(150, "ISK", "down"), 1, "and a maximum down");
  t.equal(limitProblem("deposit", 499, "USD", frontend.settings), "is below the frontend's deposit minimum (5.00 USD)");
  t.equal(limitProblem("deposit", 500, "USD", frontend.settings), undefined);
  t.equal(limitProblem("withdrawal", 20_001, "USD", frontend.settings), "is above the frontend's withdrawal maximum (200.00 USD)");
  t.equal(limitProblem("deposit", 5001, "BHD", frontend.settings), "is above the frontend's deposit maximum (5.000 BHD)");
  t.equal(limitProblem("deposit", 1, "JPY", frontend.settings), undefined, "no limits for a currency: none apply");
});

t.test("locales are BCP 47 tags of at most 10 characters", async (t) => {
  for (const ok of ["", "en", "de-DE", "ar", "zh-Hant"]) t.equal(localeProblem(ok), undefined, ok);
  for (const bad of ["x", "english!", "de_DE", "en-GB-oxendict"]) t.ok(localeProblem(bad), bad);
});

t.test("the table, by field", async (t) => {
  t.same(fields(input()), []);
  t.same(fields(input({ intent: undefined })), ["intent"]);
  t.same(fields(input({ intent: "withdrawal" })), ["orderId"], "a withdrawal needs its order_id");
  t.same(fields(input({ orderId: "x" })), ["orderId"], "a deposit takes none");
  t.same(fields(input({ intent: "withdrawal", orderId: "o", amountMinor: 3000, balanceMinor: 2000 })), ["amount"], "above the balance");
  t.same(fields(input({ intent: "withdrawal", orderId: "o", balanceMinor: -1 })), ["balance"]);
  t.same(fields(input({ amountMinor: 0 })), ["amount"]);
  t.same(fields(input({ currency: "BHD", amountMinor: 5500 })), ["amount"], "BHD 5.500 cannot be written in whole dinars");
  t.same(fields(input({ currency: "EUR" })), ["currency"]);
  t.same(fields(input({ scOrderId: "s".repeat(51), udef1: "u".repeat(51), udef2: "v".repeat(51) })), ["scOrderId", "udef1", "udef2"]);
  t.same(fields(input({ customer: { ...input().customer, country: "US" } })), ["state", "zip"], "Process's customer rules");
});

t.test("members kept with the session or echoed in callbacks hold no card number", async (t) => {
  t.same(fields(input({ scOrderId: "sc-4111111111111111", udef1: "4111 1111 1111 1111", udef2: "5555-5555-5555-4444" })), ["scOrderId", "udef1", "udef2"]);
  t.same(fields(input({ intent: "withdrawal", orderId: "wd-378282246310005" })), ["orderId"]);
  t.same(fields(input({ customer: { ...input().customer, pin: "4111111111111111", email: "4111.1111.1111.1111@example.com" } })), ["pin", "email"]);
  t.same(fields(input({ returnUrl: "https://m.example/back?c=4111111111111111" })), ["returnUrl"]);
  t.same(fields(input({ scOrderId: "sc-1541815603606036480", udef1: "2030-12-31" })), [], "ids that are no card's pass");
});
