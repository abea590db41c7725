/**
 * Money as integers of minor units, written in major units with the currency's
 * ISO 4217 decimals (CONTRACT section 6: USD 1050 -> 10.50, JPY 1000 -> 1000),
 * exactly, including amounts a double cannot hold.
 */
import t from "tap";
import { currencyExponent, formatMajor, isCurrency, wireAmount, wireRepresentable, wireUnitProblem } from "../../../../engine/shared/money.ts";

t.test("currencyExponent: ISO 4217 digits; undefined for unknown and non-money codes", async (t) => {
  const rows: [string, number | undefined][] = [
    ["USD", 2],
    ["EUR", 2],
    ["GBP", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["CLP", 0],
    ["VND", 0],
    ["ISK", 0],
    ["UGX", 0],
    ["BHD", 3],
    ["KWD", 3],
    ["JOD", 3],
    ["OMR", 3],
    ["TND", 3],
    ["IQD", 3],
    ["LYD", 3],
    ["CLF", 4],
    ["UYW", 4],
    ["usd", undefined],
    ["US", undefined],
    ["USDX", undefined],
    ["", undefined],
    ["XYZ", undefined],
    ["XXX", undefined],
    ["XTS", undefined],
    ["XAU", undefined],
    ["XAG", undefined],
    ["XDR", undefined],
  ];
  for (const [code, exp] of rows) {
    t.equal(currencyExponent(code), exp, `${JSON.stringify(code)} -> ${exp}`);
    t.equal(isCurrency(code), exp !== undefined, `isCurrency(${JSON.stringify(code)})`);
  }
});

t.test("formatMajor", async (t) => {
  const rows: [minor: number | bigint, currency: string, want: string][] = [
    [1050, "USD", "10.50"],
    [1000, "JPY", "1000"],
    [5000, "BHD", "5.000"],
    [1, "BHD", "0.001"],
    [10500, "KWD", "10.500"],
    [12345, "CLF", "1.2345"],
    [5, "USD", "0.05"],
    [50, "USD", "0.50"],
    [100, "USD", "1.00"],
    [0, "USD", "0.00"],
    [0, "JPY", "0"],
    [0, "BHD", "0.000"],
    [-5, "EUR", "-0.05"],
    [-1050, "USD", "-10.50"],
    [-1000, "JPY", "-1000"],
    [-1, "BHD", "-0.001"],
    [1050n, "USD", "10.50"],
    [Number.MAX_SAFE_INTEGER, "USD", "90071992547409.91"],
    [9007199254740993n, "USD", "90071992547409.93"],
    [2n ** 64n, "USD", "184467440737095516.16"],
    [-(2n ** 64n), "USD", "-184467440737095516.16"],
    [12345678901234567890123n, "JPY", "12345678901234567890123"],
    [12345678901234567890123n, "BHD", "12345678901234567890.123"],
    // Unknown code: two decimals, the wire's default.
    [1050, "XYZ", "10.50"],
  ];
  for (const [minor, currency, want] of rows) t.equal(formatMajor(minor, currency), want, `${minor} ${currency} -> ${want}`);
});

t.test("formatMajor never goes through a float", async (t) => {
  // 0.1 + 0.2 style errors would show here.
  for (let minor = 0; minor < 2000; minor += 7) {
    const want = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
    if (formatMajor(minor, "USD") !== want) {
      t.fail(`${minor} -> ${formatMajor(minor, "USD")}, want ${want}`);
      return;
    }
  }
  t.pass("0.00 to 19.99 exact");
});

t.test("minor units back to the wire's unit, and which amounts the wire can express", async (t) => {
  const rows: [number, string, number | null][] = [
    [1050, "USD", 1050],
    [1000, "JPY", 1000],
    [5000, "BHD", 5],
    [5500, "BHD", null],
    [12345, "KRW", 12345],
    [700, "ISK", 70000],
    [1, "EUR", 1],
    [2000, "TND", 2],
    [2001, "TND", null],
  ];
  for (const [minor, currency, wire] of rows) {
    t.equal(wireRepresentable(minor, currency), wire !== null, `${minor} ${currency} ${wire === null ? "cannot" : "can"} be written on the wire`);
    if (wire !== null) t.equal(wireAmount(minor, currency), wire, `${minor} ${currency} -> ${wire}`);
  }
});

t.test("wireUnitProblem says the interface's unit of the currency", async (t) => {
  t.equal(wireUnitProblem("BHD"), "must be a multiple of 1000 minor units: the merchant interface carries BHD in whole units");
  t.equal(wireUnitProblem("KWD"), "must be a multiple of 10 minor units: the merchant interface carries KWD in hundredths");
});
