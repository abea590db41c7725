/**
 * Checkout.com's response-code table: every documented code classified, by
 * Checkout's own groups (soft declines go on down the cascade, hard declines,
 * risk blocks and payout declines stop it) save the listed exceptions, and the
 * codes Checkout's sandbox gives its documented test amounts.
 */
import t from "tap";
import { classify, codeGroup, EXCEPTIONS, RESPONSE_CODES } from "../../../../../../engine/payments/processors/checkout/codes.ts";
import { codeOutcome } from "../../../../../../engine/payments/processors/checkout/transformers.ts";
import { testCards } from "../../../../../fixtures/checkout/load.ts";

const BY_GROUP = { approved: "approved", "soft decline": "soft", "hard decline": "hard", risk: "hard", "card payout decline": "hard" } as const;
const KIND = { approved: "unknown", soft: "retryable", hard: "declined", unavailable: "unavailable", unknown: "unknown" } as const;

t.test("every code in the table is classified: its group's class, or its listed exception", async (t) => {
  const codes = Object.keys(RESPONSE_CODES);
  t.ok(codes.length > 250, `${codes.length} documented codes`);
  for (const code of codes) {
    const c = classify(code);
    const group = codeGroup(code);
    if (!group) {
      t.fail(`${code} is outside every documented range`);
      continue;
    }
    const expected = Object.hasOwn(EXCEPTIONS, code) ? EXCEPTIONS[code].class : BY_GROUP[group];
    t.equal(c.class, expected, `${code} ${RESPONSE_CODES[code]}: ${group} -> ${expected}`);
    t.equal(c.text, RESPONSE_CODES[code]);
    t.equal(codeOutcome("pay_x", code, "").kind, KIND[c.class], `${code} on a Declined answer is ${KIND[c.class]}`);
  }
});

t.test("the groups, as Checkout.com documents them", async (t) => {
  t.equal(classify("10000").class, "approved");
  t.equal(classify("20005").class, "soft", "20005 Declined - Do not honour: soft");
  t.equal(classify("20051").class, "soft", "20051 Insufficient funds: soft");
  t.equal(classify("20087").class, "soft", "20087 Bad track data: soft");
  t.equal(classify("30004").class, "hard", "30004 Pick up card: hard");
  t.equal(classify("30043").class, "hard", "30043 Stolen card: hard");
  t.equal(classify("40101").class, "hard", "40101 Risk blocked: not sent on to another acquirer");
  t.equal(classify("30016").class, "hard", "30016 Issuer does not allow online gambling payout");
  t.equal(classify("50002").class, "hard", "50002 Sanction screening failure");
  t.equal(classify("200R1").class, "soft", "a letter in the code keeps its group");
  t.equal(classify("29999").class, "soft", "an undocumented code takes its range's group");
  t.notOk(classify("29999").text);
  for (const stray of ["", "abc", "05", "60000", "2000"]) t.equal(classify(stray).class, "hard", `"${stray}": outside every range, a hard decline`);
  for (const [code, e] of Object.entries(EXCEPTIONS)) t.ok(e.why, `${code}: ${e.class}, because ${e.why}`);
});

t.test("the codes of the documented test amounts classify as their ranges say", async (t) => {
  const { amounts } = testCards();
  t.ok(amounts.source.includes("response-code-testing"));
  for (const row of amounts.rows) {
    const out = codeOutcome("pay_x", row.code, row.text);
    const expected = row.code.startsWith("2") ? "retryable" : "declined";
    t.equal(out.kind, expected, `amount ${row.amount} -> ${row.code} ${row.text}: ${expected}`);
  }
});

t.test("a decline keeps Checkout.com's code and summary", async (t) => {
  t.same(codeOutcome("pay_x", "20051", "Insufficient Funds"), { kind: "retryable", transactionId: "pay_x", code: "20051", message: "Insufficient Funds" });
  t.same(codeOutcome("pay_x", "30004", ""), { kind: "declined", transactionId: "pay_x", code: "30004", message: "Pick up card (No fraud)" });
  t.same(codeOutcome("pay_x", "", ""), { kind: "declined", transactionId: "pay_x", code: "Declined", message: "Declined" });
  t.match(codeOutcome("pay_x", "20009", ""), { kind: "unknown" }, "a request still in progress is asked again");
  t.match(codeOutcome("pay_x", "50003", ""), { kind: "unavailable" }, "the merchant's own balance is not the card's decline");
  t.match(codeOutcome("pay_x", "10000", ""), { kind: "unknown" }, "an approval code on a declined answer is a contradiction");
});
