/**
 * The block matching rules, table-driven: which keys a sale, payout or refund
 * offers (the pin, the card's fingerprint, the e-mail without case or spaces,
 * the BIN at 6 and 8 digits), which held block refuses when several hold (the
 * most specific kind, then the oldest), and the decline it gives.
 */
import t from "tap";
import { blockedDecision, blockIdOfCause, blockKeys, type HeldBlock, refusingBlock } from "../../../../../engine/payments/domain/blocks.ts";

const sale = { pin: "p-1", email: " Ann@Example.COM ", cardNumber: "4111111111111111", cardFingerprint: "fp-4111" };

t.test("the keys a request offers", async (t) => {
  const cases: [string, Parameters<typeof blockKeys>[0], Parameters<typeof blockKeys>[1], string[]][] = [
    [
      "a sale: pin, card, e-mail lower-cased and trimmed, BIN 6 and 8",
      "sale",
      sale,
      ["customer:p-1", "card:fp-4111", "email:ann@example.com", "bin:411111", "bin:41111111"],
    ],
    ["a payout: the same", "payout", sale, ["customer:p-1", "card:fp-4111", "email:ann@example.com", "bin:411111", "bin:41111111"]],
    ["a refund: none (the money goes back)", "refund", sale, []],
    ["no e-mail: no e-mail key", "sale", { ...sale, email: "  " }, ["customer:p-1", "card:fp-4111", "bin:411111", "bin:41111111"]],
  ];
  for (const [name, type, v, want] of cases)
    t.same(
      blockKeys(type, v).map((k) => `${k.kind}:${k.value}`),
      want,
      name,
    );
});

t.test("which held block refuses", async (t) => {
  const keys = blockKeys("sale", sale);
  const b = (id: number, kind: HeldBlock["kind"], value: string): HeldBlock => ({ id, kind, value });
  const cases: [string, HeldBlock[], number | undefined][] = [
    ["none held", [], undefined],
    ["the customer", [b(1, "customer", "p-1")], 1],
    ["the card", [b(2, "card", "fp-4111")], 2],
    ["the e-mail", [b(3, "email", "ann@example.com")], 3],
    ["a 6-digit BIN", [b(4, "bin", "411111")], 4],
    ["an 8-digit BIN", [b(5, "bin", "41111111")], 5],
    ["another BIN does not hold", [b(6, "bin", "555555")], undefined],
    ["another pin does not hold", [b(7, "customer", "p-2")], undefined],
    ["another customer's card does not hold", [b(8, "card", "fp-other")], undefined],
    ["the most specific kind wins over an older BIN", [b(1, "bin", "411111"), b(9, "customer", "p-1")], 9],
    ["the card wins over the e-mail", [b(3, "email", "ann@example.com"), b(10, "card", "fp-4111")], 10],
    ["the oldest of two BINs", [b(12, "bin", "41111111"), b(11, "bin", "411111")], 11],
  ];
  for (const [name, found, want] of cases) t.equal(refusingBlock(keys, found)?.id, want, name);
  t.equal(refusingBlock([], [b(1, "customer", "p-1")]), undefined, "a refund's no keys: nothing refuses");
});

t.test("the decline a block gives", async (t) => {
  const cases: [string, "sale" | "payout", HeldBlock, string, string | undefined][] = [
    ["a sale, the customer", "sale", { id: 4, kind: "customer", value: "p" }, "Blocked: the customer", undefined],
    ["a sale, a BIN", "sale", { id: 5, kind: "bin", value: "411111" }, "Blocked: the card's BIN", undefined],
    ["a payout, the e-mail: J", "payout", { id: 6, kind: "email", value: "a@b.c" }, "Blocked: the e-mail", "J"],
    ["a payout, the card: J", "payout", { id: 7, kind: "card", value: "fp" }, "Blocked: the card", "J"],
  ];
  for (const [name, type, block, details, letter] of cases) {
    const d = blockedDecision(type, block);
    t.equal(d.to?.status, "declined", name);
    t.equal((d.to as { letter?: string }).letter, letter, `${name}: letter`);
    t.equal(d.errorCode, 9008, `${name}: 9008`);
    t.equal(d.errorDetails, details, `${name}: details name the kind, never the reason`);
    t.equal(blockIdOfCause(d.cause), block.id, `${name}: the history's cause names the block`);
  }
  for (const cause of ["validation:rejected", "block:", "block:0", "block:12x", "xblock:12"]) t.equal(blockIdOfCause(cause), undefined, cause);
});
