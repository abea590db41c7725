/**
 * What an operator may write on a customer's page: a note, a reason, an
 * e-mail and a BIN to block, each refused with the field and why.
 */
import t from "tap";
import { binToBlock, emailToBlock, noteFault, reasonFault } from "../../../../../engine/console/domain/customer-rules.ts";

t.test("notes and reasons", async (t) => {
  const cases: [string, string | undefined, string | undefined][] = [
    ["a note", noteFault("called: will send documents")?.description, undefined],
    ["an empty note", noteFault("   ")?.description, "is required"],
    ["a note of 1001 characters", noteFault("a".repeat(1001))?.description, "must be at most 1000 characters"],
    ["a note over lines", noteFault("line one\nline two")?.description, undefined],
    ["a note with a NUL", noteFault("a\u0000b")?.description, "must not contain control characters"],
    ["a note with a card number", noteFault("card 4111 1111 1111 1111 used")?.description, "must not hold a card number"],
    ["a reason", reasonFault("chargebacks")?.description, undefined],
    ["a reason of 2", reasonFault("ab")?.description, "must be at least 3 characters"],
    ["a reason with a card number", reasonFault("4111111111111111")?.description, "must not hold a card number"],
  ];
  for (const [name, got, want] of cases) t.equal(got, want, name);
  t.equal(reasonFault("")?.field, "reason");
  t.equal(noteFault("")?.field, "text");
});

t.test("e-mails and BINs to block", async (t) => {
  t.same(emailToBlock(" Ann@Example.com "), { value: "ann@example.com" });
  t.same(emailToBlock("not an address"), { field: "value", description: "must be an e-mail address" });
  t.same(emailToBlock(""), { field: "value", description: "is required: the e-mail address to block" });
  t.same(binToBlock("411111"), { value: "411111" });
  t.same(binToBlock("41111111"), { value: "41111111" });
  for (const bad of ["41111", "4111111", "411111111", "4111a1", ""])
    t.same(binToBlock(bad), { field: "value", description: "must be the first 6 or 8 digits of a card number" }, JSON.stringify(bad));
});
