/**
 * The rules of a card token in Process (CONTRACT 12), pure: its verdict for
 * every state a token can be in against the request that names it, and the
 * request's own faults with a token before any lookup.
 */
import t from "tap";
import {
  CARD_TOKEN_EXPIRED,
  CARD_TOKEN_MIXED,
  CARD_TOKEN_REFUND,
  CARD_TOKEN_UNKNOWN,
  CARD_TOKEN_USED,
  type CardTokenState,
  cardTokenRequestViolations,
  judgeCardToken,
} from "../../../../../engine/payments/domain/card-token.ts";
import { fieldsViolations } from "../../../../../engine/cashier/app/submit-fields.ts";
import { aProcessInput } from "../../../../support/builders.ts";

const now = new Date("2026-11-29T10:00:00Z");
const token: CardTokenState = {
  merchantId: "m-1",
  frontend: "f-usd",
  pin: "cust-1",
  expiresAt: new Date(now.getTime() + 60_000),
  usedAt: null,
  usedOrderId: null,
};
const use = { merchantId: "m-1", frontend: "f-usd", pin: "cust-1", orderId: "ord-1" };

t.test("a token's verdict for each state and each request", async (t) => {
  const cases: [string, CardTokenState | undefined, typeof use, ReturnType<typeof judgeCardToken>][] = [
    ["fresh, its own customer", token, use, { kind: "usable" }],
    ["unknown", undefined, use, { kind: "refused", description: CARD_TOKEN_UNKNOWN }],
    ["another merchant", token, { ...use, merchantId: "m-2" }, { kind: "refused", description: CARD_TOKEN_UNKNOWN }],
    ["another frontend", token, { ...use, frontend: "f-eur" }, { kind: "refused", description: CARD_TOKEN_UNKNOWN }],
    ["another pin", token, { ...use, pin: "cust-2" }, { kind: "refused", description: CARD_TOKEN_UNKNOWN }],
    ["used by another order", { ...token, usedAt: now, usedOrderId: "ord-0" }, use, { kind: "refused", description: CARD_TOKEN_USED }],
    ["used by this very order: a repeat", { ...token, usedAt: now, usedOrderId: "ord-1" }, use, { kind: "repeat" }],
    ["used by this order and expired since: still a repeat", { ...token, usedAt: now, usedOrderId: "ord-1", expiresAt: new Date(0) }, use, { kind: "repeat" }],
    ["expired at this very moment", { ...token, expiresAt: now }, use, { kind: "refused", description: CARD_TOKEN_EXPIRED }],
    [
      "a foreign expired token reads as unknown",
      { ...token, expiresAt: new Date(0) },
      { ...use, pin: "cust-2" },
      { kind: "refused", description: CARD_TOKEN_UNKNOWN },
    ],
  ];
  for (const [name, state, request, verdict] of cases) t.same(judgeCardToken(state, request, now), verdict, name);
});

t.test("the request's own faults with a token", async (t) => {
  const good = "A".repeat(43);
  const none = { number: "", cvv: "", expiry: "" };
  const input = (over: Parameters<typeof aProcessInput>[0], card = none) => ({ ...aProcessInput(over), card });
  t.same(cardTokenRequestViolations(input({})), [], "no token, nothing to say");
  t.same(cardTokenRequestViolations(input({ cardToken: good })), [], "a token alone");
  t.same(cardTokenRequestViolations(input({ cardToken: good, type: "payout" })), [], "a payout may carry one");
  for (const card of [
    { ...none, number: "4111111111111111" },
    { ...none, expiry: "12/2030" },
    { ...none, cvv: "123" },
  ]) {
    t.same(cardTokenRequestViolations(input({ cardToken: good }, card)), [{ field: "cardToken", description: CARD_TOKEN_MIXED }], JSON.stringify(card));
  }
  t.same(cardTokenRequestViolations(input({ cardToken: good, type: "refund" })), [{ field: "cardToken", description: CARD_TOKEN_REFUND }]);
  for (const shape of ["short", "A".repeat(44), `${"A".repeat(42)}=`, `${"A".repeat(42)} `]) {
    t.same(cardTokenRequestViolations(input({ cardToken: shape })), [{ field: "cardToken", description: CARD_TOKEN_UNKNOWN }], shape);
  }
});

t.test("the fields form's card: Process's card rules, a CVV and a name required", async (t) => {
  const card = { number: "4111111111111111", expiry: "12/2030", cvv: "123" };
  t.same(fieldsViolations({ sessionToken: "", card, holder: "Jane Doe" }, now), []);
  t.same(
    fieldsViolations({ sessionToken: "", card: { number: "4111111111111112", expiry: "01/2020", cvv: "" }, holder: " " }, now).map((v) => v.field),
    ["card.number", "card.cvv", "card.expiry", "holder"],
  );
  t.same(fieldsViolations({ sessionToken: "", card, holder: "Jane\u0000Doe" }, now), [{ field: "holder", description: "must not contain control characters" }]);
});
