/**
 * The seed's `amount` (cents, or whole units for JPY, CLP, KRW, VND, BHD, IQD,
 * JOD, LYD, OMR, TND) -> integer minor units of the currency's ISO 4217
 * exponent, and back.
 */
import t from "tap";
import { wireAmountToMinor } from "../../../../edge/wire/amount.ts";
import { WHOLE_UNIT_CURRENCIES } from "../../../../engine/shared/money.ts";

t.test("the seed's whole-unit list", async (t) => {
  t.same([...WHOLE_UNIT_CURRENCIES].sort(), ["BHD", "CLP", "IQD", "JOD", "JPY", "KRW", "LYD", "OMR", "TND", "VND"]);
});

t.test("wireAmountToMinor", async (t) => {
  const rows: [name: string, amount: number, currency: string, want: bigint | null][] = [
    ["USD cents are minor units", 1050, "USD", 1050n],
    ["EUR cents", 1, "EUR", 1n],
    ["GBP", 999999, "GBP", 999999n],
    ["JPY whole yen", 1000, "JPY", 1000n],
    ["KRW whole won", 50000, "KRW", 50000n],
    ["CLP whole pesos", 1, "CLP", 1n],
    ["VND whole dong", 250000, "VND", 250000n],
    ["BHD whole dinars -> fils", 5, "BHD", 5000n],
    ["JOD whole dinars", 12, "JOD", 12000n],
    ["OMR whole rials", 1, "OMR", 1000n],
    ["TND whole dinars", 7, "TND", 7000n],
    ["IQD whole dinars", 100, "IQD", 100000n],
    ["LYD whole dinars", 3, "LYD", 3000n],
    ["KWD (3 decimals, not in the list): cents * 10", 1050, "KWD", 10500n],
    ["KWD one cent", 1, "KWD", 10n],
    ["CLF (4 decimals): cents * 100", 123, "CLF", 12300n],
    ["ISK (0 decimals, not in the list): 1000 cents = 10 kronur", 1000, "ISK", 10n],
    ["ISK 100 cents = 1 krona", 100, "ISK", 1n],
    ["ISK 1050 cents: not a whole krona", 1050, "ISK", null],
    ["ISK 1 cent", 1, "ISK", null],
    ["UGX (0 decimals, not in the list) 500 cents", 500, "UGX", 5n],
    ["UGX 550 cents", 550, "UGX", null],
    ["unknown currency: passed through", 1234, "XYZ", 1234n],
    ["lower-case code: passed through", 1234, "usd", 1234n],
    ["empty currency: passed through", 77, "", 77n],
    ["zero", 0, "USD", 0n],
    ["negative passes through (the engine refuses it)", -5, "USD", -5n],
    ["largest safe integer, USD", Number.MAX_SAFE_INTEGER, "USD", 9007199254740991n],
    ["largest safe integer, BHD: beyond 2^53, exact", Number.MAX_SAFE_INTEGER, "BHD", 9007199254740991000n],
  ];
  for (const [name, amount, currency, want] of rows) {
    const got = wireAmountToMinor(amount, currency);
    if (want === null) {
      t.equal(got.ok, false, `${name}: refused`);
      if (!got.ok) t.match(got.reason, currency, `${name}: reason names the currency`);
    } else {
      t.same(got, { ok: true, minor: want }, `${name}: ${want}`);
    }
  }
});

t.test("codes that are not money (XXX, XTS, XAU, XDR) pass through like unknown codes, so the engine names the currency", async (t) => {
  for (const code of ["XXX", "XTS", "XAU", "XDR"]) {
    t.same(wireAmountToMinor(1050, code), { ok: true, minor: 1050n }, code);
  }
});
