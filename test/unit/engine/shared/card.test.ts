/**
 * Card helpers: the Luhn check, the brand written into RecordFailedDeposit's
 * CardType (VISA, MC, AMEX, ...) and the masked number (first 6, last 4) that is
 * the only full-looking view of a card ever kept or sent.
 */
import t from "tap";
import { cardBrand, luhnValid, maskCard, maskCardNumbers } from "../../../../engine/shared/card.ts";

t.test("luhnValid", async (t) => {
  const rows: [string, boolean][] = [
    ["4111111111111111", true],
    ["5555555555554444", true],
    ["378282246310005", true],
    ["4000000000000002", true],
    ["4000000000009995", true],
    ["4000000000000119", true],
    ["4000000000003220", true],
    ["4000000000000077", true],
    ["4000000000000259", true],
    ["4000000000000341", true],
    ["79927398713", true],
    ["4111111111111112", false],
    ["4111111111111121", false],
    ["5555555555554445", false],
    ["79927398710", false],
    ["1234567812345678", false],
  ];
  for (const [n, ok] of rows) t.equal(luhnValid(n), ok, `${n} ${ok ? "valid" : "invalid"}`);
});

t.test("luhnValid catches every single-digit error and adjacent transposition of a valid number", async (t) => {
  const n = "4111111111111111";
  const misses: string[] = [];
  for (let i = 0; i < n.length; i++) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) === n[i]) continue;
      const m = n.slice(0, i) + d + n.slice(i + 1);
      if (luhnValid(m)) misses.push(m);
    }
  }
  t.same(misses, [], "single-digit substitutions rejected");
  const base = "4532015112830366";
  t.ok(luhnValid(base));
  for (let i = 0; i < base.length - 1; i++) {
    const a = base[i];
    const b = base[i + 1];
    if (a === b || (a === "0" && b === "9") || (a === "9" && b === "0")) continue;
    const m = base.slice(0, i) + b + a + base.slice(i + 2);
    t.notOk(luhnValid(m), `transposition at ${i}: ${m}`);
  }
});

t.test("cardBrand", async (t) => {
  const rows: [string, string][] = [
    ["4111111111111111", "VISA"],
    ["4000000000000002", "VISA"],
    ["5555555555554444", "MC"],
    ["5105105105105100", "MC"],
    ["2223003122003222", "MC"],
    ["378282246310005", "AMEX"],
    ["371449635398431", "AMEX"],
    ["6011111111111117", "DISCOVER"],
    ["3530111333300000", "JCB"],
    ["9999999999999995", "CARD"],
  ];
  for (const [n, brand] of rows) t.equal(cardBrand(n), brand, `${n} -> ${brand}`);
});

t.test("maskCard: first 6, last 4, the rest starred, length kept; short numbers show only the last 4", async (t) => {
  const rows: [string, string][] = [
    ["4111111111111111", "411111******1111"],
    ["5555555555554444", "555555******4444"],
    ["378282246310005", "378282*****0005"],
    // 12 digits: 6 + 4 would leave 2 hidden, one of them fixed by Luhn.
    ["123456789012", "********9012"],
    ["6200000012345", "*********2345"],
    ["4111111111111111110", "411111*********1110"],
  ];
  for (const [n, masked] of rows) {
    const got = maskCard(n);
    t.equal(got, masked, `${n} -> ${masked}`);
    t.equal(got.length, n.length, "same length");
    t.notMatch(got, /\d{7,}/, "never more than 6 digits in a row");
  }
  t.equal(maskCard("1234"), "****", "four digits: nothing shown");
  t.equal(maskCard(""), "");
});

t.test("maskCardNumbers: every card number in free text masked as maskCard does, separators kept; other digits kept", async (t) => {
  const rows: [string, string][] = [
    ["customer card 4000000000000077 blocked", "customer card 400000******0077 blocked"],
    ["4111 1111 1111 1111 and 5555-5555-5555-4444", "4111 11** **** 1111 and 5555-55**-****-4444"],
    ["order 1234567890123 of 25 EUR", "order 1234567890123 of 25 EUR"],
    ["phone +44 20 7946 0958", "phone +44 20 7946 0958"],
    ["", ""],
    // What the first version let through (review): digits around the number, other separators, other digit forms.
    ["4111 1111 1111 1111 12/30", "4111 11** **** 1111 12/30"],
    ["4111111111111111 123", "411111******1111 123"],
    ["ref 12 4111111111111111", "ref 12 411111******1111"],
    ["4111111111111111-05", "411111******1111-05"],
    ["4111.1111.1111.1111", "4111.11**.****.1111"],
    ["4111  1111  1111  1111", "4111  11**  ****  1111"],
    ["4111\u00a01111\u00a01111\u00a01111", "4111\u00a011**\u00a0****\u00a01111"],
    ["٤١١١١١١١١١١١١١١١", "٤١١١١١******١١١١"],
  ];
  for (const [text, masked] of rows) t.equal(maskCardNumbers(text), masked, text);
  t.equal(maskCardNumbers(maskCardNumbers(rows[1][0])), rows[1][1], "masking twice changes nothing more");
  t.notMatch(maskCardNumbers("reference 4111111111111111999999"), /4111111111111111/, "a card number inside a longer run is not left whole");
});
