/**
 * An amount typed in a money form, read in the currency's own decimals: what is not one of its amounts (a comma, more
 * decimals than it has, zero, a sign, an unknown currency) is refused, never guessed at.
 */
import t from "tap";
import { minorOf } from "../../../../edge/backoffice/routes/money-amount.ts";

t.test("amounts in each currency's decimals", async (t) => {
  const cases: [string, string, bigint | undefined][] = [
    ["12.50", "EUR", 1250n],
    ["12.5", "EUR", 1250n],
    ["12", "EUR", 1200n],
    [" 7.50 ", "USD", 750n],
    ["0.01", "USD", 1n],
    ["1200", "JPY", 1200n],
    ["1.5", "JPY", undefined],
    ["1.234", "BHD", 1234n],
    ["1.2345", "BHD", undefined],
    ["1,50", "EUR", undefined],
    ["1.505", "EUR", undefined],
    ["0", "EUR", undefined],
    ["0.00", "EUR", undefined],
    ["-1", "EUR", undefined],
    ["", "EUR", undefined],
    ["1e3", "EUR", undefined],
    ["10", "XXX", undefined],
    ["10", "", undefined],
  ];
  for (const [text, currency, minor] of cases) t.equal(minorOf(text, currency), minor, `${JSON.stringify(text)} ${currency}`);
});
