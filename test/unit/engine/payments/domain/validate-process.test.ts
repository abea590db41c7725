/**
 * validateProcess: every rule of seed section 2.1 and CONTRACT section 3 for a
 * Process request, each with passing and failing cases, as a platform sees
 * them (the field named, a sentence saying why), and all violations at once.
 * Pure: a fixed "now", a frontend value, no database.
 */
import t, { type Test } from "tap";
import { isDummyPhone, parseDob, validateProcess, VALIDATED_FIELDS, type ValidationContext } from "../../../../../engine/payments/domain/validate-process.ts";
import type { FrontendView, ProcessInput } from "../../../../../engine/shared/transaction.ts";
import { WIRE_NAMES } from "../../../../../engine/shared/wire/wire-names.ts";
import { aProcessInput } from "../../../../support/builders.ts";

/** The rules name fields by the domain's names; these tests read them as the platform does, through the wire's table. */
const wireName = (field: string) => WIRE_NAMES[field as keyof typeof WIRE_NAMES] ?? field;
const WIRE_VALIDATED_FIELDS = VALIDATED_FIELDS.map(wireName);

const NOW = new Date("2026-06-15T12:00:00Z");
const FRONTEND: FrontendView = { name: "demo-usd", baseCurrency: "USD", currencies: ["USD", "EUR", "JPY"] };

/** A request every rule accepts, on FRONTEND at NOW: each row below changes one thing in it. */
function base(): ProcessInput {
  return aProcessInput({
    merchantId: "m-demo",
    type: "sale",
    frontend: FRONTEND.name,
    currency: "USD",
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
    customer: { country: "GB", zip: "SW1A1AA", state: "" },
    timestamp: 1795000000,
  });
}

type Mut = (i: ProcessInput) => void;
interface Row {
  name: string;
  mut: Mut;
  /** The one field expected to be refused; null: the request is valid. */
  field: string | null;
  /** What the description must say, when it matters. */
  says?: RegExp;
  ctx?: Partial<ValidationContext>;
}

function check(i: ProcessInput, ctx: Partial<ValidationContext> = {}) {
  return validateProcess(i, { frontend: FRONTEND, now: NOW, ...ctx }).map((v) => ({ ...v, field: wireName(v.field) }));
}

function runTable(t: Test, rows: Row[]) {
  for (const row of rows) {
    const input = base();
    row.mut(input);
    const got = check(input, row.ctx);
    if (row.field === null) {
      t.same(got, [], `${row.name}: accepted`);
    } else {
      t.same(
        got.map((v) => v.field),
        [row.field],
        `${row.name}: refused on ${row.field} only`,
      );
      if (row.says && got[0]) t.match(got[0].description, row.says, `${row.name}: says ${row.says}`);
      if (got[0]) t.ok(got[0].description.length > 0, `${row.name}: has a description`);
    }
  }
}

/** An independent Luhn: the body with the one check digit that makes it valid. */
function luhnComplete(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const n = body + d;
    let sum = 0;
    [...n].reverse().forEach((c, idx) => {
      let v = Number(c);
      if (idx % 2 === 1) {
        v *= 2;
        if (v > 9) v -= 9;
      }
      sum += v;
    });
    if (sum % 10 === 0) return n;
  }
  throw new Error("unreachable");
}
const luhnBreak = (n: string) => n.slice(0, -1) + String((Number(n.at(-1)) + 1) % 10);

t.test("the base request is valid", async (t) => {
  t.same(check(base()), []);
});

t.test("card_number: Luhn, 12 to 19 digits", async (t) => {
  const c11 = luhnComplete("4".padEnd(10, "1"));
  const c12 = luhnComplete("4".padEnd(11, "1"));
  const c19 = luhnComplete("4".padEnd(18, "1"));
  const c20 = luhnComplete("4".padEnd(19, "1"));
  t.equal(c11.length, 11);
  t.equal(c20.length, 20);
  runTable(t, [
    { name: "visa test card", mut: (i) => void (i.card.number = "4111111111111111"), field: null },
    { name: "mastercard test card", mut: (i) => void (i.card.number = "5555555555554444"), field: null },
    { name: "amex 15 digits", mut: (i) => void (i.card.number = "378282246310005"), field: null },
    { name: "12 digits, Luhn-valid", mut: (i) => void (i.card.number = c12), field: null },
    { name: "19 digits, Luhn-valid", mut: (i) => void (i.card.number = c19), field: null },
    { name: "11 digits, Luhn-valid", mut: (i) => void (i.card.number = c11), field: "card_number", says: /12 to 19/ },
    { name: "20 digits, Luhn-valid", mut: (i) => void (i.card.number = c20), field: "card_number", says: /12 to 19/ },
    { name: "Luhn failure", mut: (i) => void (i.card.number = "4111111111111112"), field: "card_number", says: /Luhn/ },
    { name: "Luhn failure, 12 digits", mut: (i) => void (i.card.number = luhnBreak(c12)), field: "card_number", says: /Luhn/ },
    { name: "Luhn failure, 19 digits", mut: (i) => void (i.card.number = luhnBreak(c19)), field: "card_number", says: /Luhn/ },
    { name: "spaces", mut: (i) => void (i.card.number = "4111 1111 1111 1111"), field: "card_number" },
    { name: "dashes", mut: (i) => void (i.card.number = "4111-1111-1111-1111"), field: "card_number" },
    { name: "letters", mut: (i) => void (i.card.number = "41111111111111ab"), field: "card_number" },
    { name: "missing", mut: (i) => void (i.card.number = ""), field: "card_number", says: /required/ },
  ]);
});

t.test("card_exp: MM/YYYY and not in the past (now = 2026-06-15)", async (t) => {
  runTable(t, [
    { name: "12/2030", mut: (i) => void (i.card.expiry = "12/2030"), field: null },
    { name: "current month 06/2026", mut: (i) => void (i.card.expiry = "06/2026"), field: null },
    { name: "next month 07/2026", mut: (i) => void (i.card.expiry = "07/2026"), field: null },
    { name: "next year 01/2027", mut: (i) => void (i.card.expiry = "01/2027"), field: null },
    { name: "last month 05/2026", mut: (i) => void (i.card.expiry = "05/2026"), field: "card_exp", says: /past|expired/ },
    { name: "last year 12/2025", mut: (i) => void (i.card.expiry = "12/2025"), field: "card_exp", says: /past|expired/ },
    { name: "month 13", mut: (i) => void (i.card.expiry = "13/2030"), field: "card_exp", says: /MM\/YYYY/ },
    { name: "month 00", mut: (i) => void (i.card.expiry = "00/2030"), field: "card_exp", says: /MM\/YYYY/ },
    { name: "one-digit month", mut: (i) => void (i.card.expiry = "6/2030"), field: "card_exp" },
    { name: "two-digit year", mut: (i) => void (i.card.expiry = "12/30"), field: "card_exp" },
    { name: "dash separator", mut: (i) => void (i.card.expiry = "12-2030"), field: "card_exp" },
    { name: "YYYY/MM", mut: (i) => void (i.card.expiry = "2030/12"), field: "card_exp" },
    { name: "trailing space", mut: (i) => void (i.card.expiry = "12/2030 "), field: "card_exp" },
    { name: "missing", mut: (i) => void (i.card.expiry = ""), field: "card_exp", says: /required/ },
    // Boundaries around a year change, with their own "now".
    { name: "12/2025 on the last second of 2025", mut: (i) => void (i.card.expiry = "12/2025"), field: null, ctx: { now: new Date("2025-12-31T23:59:59Z") } },
    {
      name: "12/2025 on the first second of 2026",
      mut: (i) => void (i.card.expiry = "12/2025"),
      field: "card_exp",
      ctx: { now: new Date("2026-01-01T00:00:00Z") },
    },
    { name: "01/2026 on the first second of 2026", mut: (i) => void (i.card.expiry = "01/2026"), field: null, ctx: { now: new Date("2026-01-01T00:00:00Z") } },
  ]);
});

t.test("cvv: required for sale only, 3 or 4 digits when given", async (t) => {
  const refund = (i: ProcessInput) => {
    i.type = "refund";
    i.referenceId = "123456";
  };
  runTable(t, [
    { name: "sale, 3 digits", mut: (i) => void (i.card.cvv = "123"), field: null },
    { name: "sale, 4 digits (amex)", mut: (i) => void (i.card.cvv = "1234"), field: null },
    { name: "sale, missing", mut: (i) => void (i.card.cvv = ""), field: "cvv", says: /required/ },
    { name: "sale, 2 digits", mut: (i) => void (i.card.cvv = "12"), field: "cvv" },
    { name: "sale, 5 digits", mut: (i) => void (i.card.cvv = "12345"), field: "cvv" },
    { name: "sale, letters", mut: (i) => void (i.card.cvv = "abc"), field: "cvv" },
    { name: "payout, missing", mut: (i) => ((i.type = "payout"), (i.card.cvv = "")), field: null },
    { name: "payout, given", mut: (i) => void (i.type = "payout"), field: null },
    { name: "payout, malformed", mut: (i) => ((i.type = "payout"), (i.card.cvv = "12")), field: "cvv" },
    { name: "refund, missing", mut: (i) => (refund(i), (i.card.cvv = "")), field: null },
    { name: "refund, malformed", mut: (i) => (refund(i), (i.card.cvv = "1a3")), field: "cvv" },
  ]);
});

t.test("dob: MM/DD/YYYY or YYYY-MM-DD, a real date, in the past", async (t) => {
  runTable(t, [
    { name: "absent (optional)", mut: (i) => void (i.customer.dob = ""), field: null },
    { name: "MM/DD/YYYY", mut: (i) => void (i.customer.dob = "01/31/1990"), field: null },
    { name: "YYYY-MM-DD", mut: (i) => void (i.customer.dob = "1990-01-31"), field: null },
    { name: "leap day 2000", mut: (i) => void (i.customer.dob = "02/29/2000"), field: null },
    { name: "leap day 2024 ISO", mut: (i) => void (i.customer.dob = "2024-02-29"), field: null },
    { name: "yesterday", mut: (i) => void (i.customer.dob = "06/14/2026"), field: null },
    { name: "the year 1 (not read as 1901)", mut: (i) => void (i.customer.dob = "0001-01-01"), field: null },
    { name: "Feb 29 of the year 4, a leap year", mut: (i) => void (i.customer.dob = "02/29/0004"), field: null },
    { name: "Feb 29 of the year 1", mut: (i) => void (i.customer.dob = "0001-02-29"), field: "dob", says: /real date/ },
    { name: "Feb 29 1900 (not a leap year)", mut: (i) => void (i.customer.dob = "02/29/1900"), field: "dob", says: /real date/ },
    { name: "Feb 29 2023", mut: (i) => void (i.customer.dob = "2023-02-29"), field: "dob", says: /real date/ },
    { name: "Feb 30", mut: (i) => void (i.customer.dob = "02/30/1990"), field: "dob", says: /real date/ },
    { name: "Apr 31", mut: (i) => void (i.customer.dob = "04/31/1990"), field: "dob", says: /real date/ },
    { name: "month 13", mut: (i) => void (i.customer.dob = "13/01/1990"), field: "dob" },
    { name: "month 00", mut: (i) => void (i.customer.dob = "1990-00-10"), field: "dob" },
    { name: "day 00", mut: (i) => void (i.customer.dob = "01/00/1990"), field: "dob" },
    { name: "DD/MM/YYYY", mut: (i) => void (i.customer.dob = "31/01/1990"), field: "dob" },
    { name: "one-digit month", mut: (i) => void (i.customer.dob = "1/31/1990"), field: "dob" },
    { name: "YYYY/MM/DD", mut: (i) => void (i.customer.dob = "1990/01/31"), field: "dob" },
    { name: "ISO without padding", mut: (i) => void (i.customer.dob = "1990-1-31"), field: "dob" },
    { name: "ISO date-time", mut: (i) => void (i.customer.dob = "1990-01-31T00:00:00Z"), field: "dob" },
    { name: "words", mut: (i) => void (i.customer.dob = "yesterday"), field: "dob" },
    { name: "tomorrow", mut: (i) => void (i.customer.dob = "06/16/2026"), field: "dob", says: /past/ },
    { name: "future ISO", mut: (i) => void (i.customer.dob = "2030-01-01"), field: "dob", says: /past/ },
  ]);
});

t.test("parseDob: real calendar dates in either format, at UTC midnight", async (t) => {
  const rows: [string, string | undefined][] = [
    ["01/31/1990", "1990-01-31T00:00:00.000Z"],
    ["1990-01-31", "1990-01-31T00:00:00.000Z"],
    ["02/29/2000", "2000-02-29T00:00:00.000Z"],
    ["12/31/1999", "1999-12-31T00:00:00.000Z"],
    ["02/29/1900", undefined],
    ["02/30/1990", undefined],
    ["13/01/1990", undefined],
    ["31/01/1990", undefined],
    ["1990-02-31", undefined],
    ["1990/01/31", undefined],
    ["01-31-1990", undefined],
    ["", undefined],
    [" 01/31/1990", undefined],
  ];
  for (const [input, iso] of rows) t.equal(parseDob(input)?.toISOString(), iso, JSON.stringify(input));
});

t.test("phone: digits only, 6 to 20, not a dummy sequence", async (t) => {
  runTable(t, [
    { name: "absent (optional)", mut: (i) => void (i.customer.phone = ""), field: null },
    { name: "UK number with country code", mut: (i) => void (i.customer.phone = "447911123456"), field: null },
    { name: "6 digits", mut: (i) => void (i.customer.phone = "123457"), field: null },
    { name: "20 digits", mut: (i) => void (i.customer.phone = "44791112345678901234"), field: null },
    { name: "alternating", mut: (i) => void (i.customer.phone = "121212"), field: null },
    { name: "pairs", mut: (i) => void (i.customer.phone = "112233"), field: null },
    { name: "5 digits", mut: (i) => void (i.customer.phone = "12457"), field: "phone" },
    { name: "21 digits", mut: (i) => void (i.customer.phone = "447911123456789012345"), field: "phone" },
    { name: "plus sign", mut: (i) => void (i.customer.phone = "+447911123456"), field: "phone", says: /digits/ },
    { name: "spaces", mut: (i) => void (i.customer.phone = "44 7911 123456"), field: "phone", says: /digits/ },
    { name: "dashes", mut: (i) => void (i.customer.phone = "555-123-4567"), field: "phone", says: /digits/ },
    { name: "counting up 123456", mut: (i) => void (i.customer.phone = "123456"), field: "phone", says: /dummy/ },
    { name: "counting down 987654", mut: (i) => void (i.customer.phone = "987654"), field: "phone", says: /dummy/ },
    { name: "repeated 111111", mut: (i) => void (i.customer.phone = "111111"), field: "phone", says: /dummy/ },
    { name: "repeated 0000000000", mut: (i) => void (i.customer.phone = "0000000000"), field: "phone", says: /dummy/ },
    { name: "wrapping up 7890123", mut: (i) => void (i.customer.phone = "7890123"), field: "phone", says: /dummy/ },
    { name: "wrapping down 3210987", mut: (i) => void (i.customer.phone = "3210987"), field: "phone", says: /dummy/ },
    { name: "0123456789", mut: (i) => void (i.customer.phone = "0123456789"), field: "phone", says: /dummy/ },
  ]);
});

t.test("isDummyPhone: repeated digits and counting runs (with wrap)", async (t) => {
  const rows: [string, boolean][] = [
    ["123456", true],
    ["987654", true],
    ["111111", true],
    ["999999999", true],
    ["7890123", true],
    ["8901234567", true],
    ["3210987", true],
    ["0987654321", true],
    ["1234567890123", true],
    ["447911123456", false],
    ["123457", false],
    ["123465", false],
    ["121212", false],
    ["135791", false],
    ["111112", false],
    ["211111", false],
    ["5555550", false],
  ];
  for (const [digits, dummy] of rows) t.equal(isDummyPhone(digits), dummy, digits);
});

t.test("country: ISO 3166-1 alpha-2, upper case", async (t) => {
  runTable(t, [
    { name: "GB", mut: (i) => void (i.customer.country = "GB"), field: null },
    { name: "DE", mut: (i) => void (i.customer.country = "DE"), field: null },
    { name: "JP", mut: (i) => void (i.customer.country = "JP"), field: null },
    { name: "lower case gb", mut: (i) => void (i.customer.country = "gb"), field: "country" },
    { name: "mixed case Gb", mut: (i) => void (i.customer.country = "Gb"), field: "country" },
    { name: "UK (not ISO)", mut: (i) => void (i.customer.country = "UK"), field: "country" },
    { name: "XX", mut: (i) => void (i.customer.country = "XX"), field: "country" },
    { name: "XK (user-assigned, not ISO 3166-1)", mut: (i) => void (i.customer.country = "XK"), field: "country" },
    { name: "alpha-3 GBR", mut: (i) => void (i.customer.country = "GBR"), field: "country" },
    { name: "numeric 826", mut: (i) => void (i.customer.country = "826"), field: "country" },
    { name: "one letter", mut: (i) => void (i.customer.country = "G"), field: "country" },
    { name: "missing", mut: (i) => void (i.customer.country = ""), field: "country", says: /required/ },
  ]);
});

t.test("state: two letters required for US, CA, AU; blank otherwise", async (t) => {
  const at =
    (country: string, state: string, zip = "12345"): Mut =>
    (i) => {
      i.customer.country = country;
      i.customer.state = state;
      i.customer.zip = zip;
    };
  runTable(t, [
    { name: "US NY", mut: at("US", "NY", "10001"), field: null },
    { name: "CA ON", mut: at("CA", "ON", "K1A0B1"), field: null },
    { name: "AU WA", mut: at("AU", "WA", "6000"), field: null },
    { name: "GB blank", mut: at("GB", "", "SW1A1AA"), field: null },
    { name: "GB whitespace only", mut: at("GB", "  ", "SW1A1AA"), field: null },
    { name: "US missing", mut: at("US", "", "10001"), field: "state", says: /required/ },
    { name: "CA missing", mut: at("CA", "", "K1A0B1"), field: "state", says: /required/ },
    { name: "AU missing", mut: at("AU", "", "6000"), field: "state", says: /required/ },
    { name: "US lower case", mut: at("US", "ny", "10001"), field: "state", says: /^must be the two-letter ISO 3166-2 code in upper case for US/ },
    { name: "US one letter", mut: at("US", "N", "10001"), field: "state" },
    { name: "US three letters", mut: at("US", "NYC", "10001"), field: "state" },
    { name: "US digits", mut: at("US", "12", "10001"), field: "state" },
    { name: "AU three letters NSW", mut: at("AU", "NSW", "2000"), field: "state" },
    { name: "GB given", mut: at("GB", "XX", "SW1A1AA"), field: "state", says: /blank/ },
    { name: "DE given", mut: at("DE", "BY", "80331"), field: "state", says: /blank/ },
  ]);
});

t.test("zip: required for US and CA, at most 12 letters or digits", async (t) => {
  const at =
    (country: string, zip: string): Mut =>
    (i) => {
      i.customer.country = country;
      i.customer.state = ["US", "CA", "AU"].includes(country) ? "ON" : "";
      i.customer.zip = zip;
    };
  runTable(t, [
    { name: "US 10001", mut: at("US", "10001"), field: null },
    { name: "CA K1A0B1", mut: at("CA", "K1A0B1"), field: null },
    { name: "AU blank", mut: at("AU", ""), field: null },
    { name: "GB blank", mut: at("GB", ""), field: null },
    { name: "GB SW1A1AA", mut: at("GB", "SW1A1AA"), field: null },
    { name: "12 characters", mut: at("GB", "ABCDEF123456"), field: null },
    { name: "US missing", mut: at("US", ""), field: "zip", says: /required/ },
    { name: "CA missing", mut: at("CA", ""), field: "zip", says: /required/ },
    { name: "13 characters", mut: at("GB", "ABCDEF1234567"), field: "zip" },
    { name: "space inside", mut: at("CA", "K1A 0B1"), field: "zip" },
    { name: "ZIP+4 dash", mut: at("US", "12345-6789"), field: "zip" },
    { name: "punctuation", mut: at("GB", "SW1A.1AA"), field: "zip" },
  ]);
});

t.test("currency: ISO 4217, accepted by the frontend", async (t) => {
  runTable(t, [
    { name: "USD (base)", mut: (i) => void (i.currency = "USD"), field: null },
    { name: "EUR (accepted)", mut: (i) => void (i.currency = "EUR"), field: null },
    { name: "JPY (accepted)", mut: (i) => void (i.currency = "JPY"), field: null },
    { name: "GBP: ISO but not accepted by demo-usd", mut: (i) => void (i.currency = "GBP"), field: "currency", says: /demo-usd/ },
    { name: "lower case usd", mut: (i) => void (i.currency = "usd"), field: "currency", says: /ISO 4217/ },
    { name: "unknown XYZ", mut: (i) => void (i.currency = "XYZ"), field: "currency", says: /ISO 4217/ },
    { name: "XXX (no currency)", mut: (i) => void (i.currency = "XXX"), field: "currency", says: /ISO 4217/ },
    { name: "XAU (gold)", mut: (i) => void (i.currency = "XAU"), field: "currency", says: /ISO 4217/ },
    { name: "two letters", mut: (i) => void (i.currency = "US"), field: "currency" },
    { name: "numeric 840", mut: (i) => void (i.currency = "840"), field: "currency" },
    { name: "missing", mut: (i) => void (i.currency = ""), field: "currency", says: /required/ },
  ]);
});

t.test("frontend: required and must belong to the merchant", async (t) => {
  const long = "f".repeat(257);
  runTable(t, [
    { name: "known frontend", mut: () => {}, field: null },
    { name: "unknown frontend", mut: (i) => void (i.frontend = "other"), field: "frontend", says: /not a frontend/, ctx: { frontend: undefined } },
    // No frontend to ask: the currency is judged on ISO 4217 alone, not reported twice.
    { name: "unknown frontend, GBP", mut: (i) => ((i.frontend = "other"), (i.currency = "GBP")), field: "frontend", ctx: { frontend: undefined } },
    { name: "missing", mut: (i) => void (i.frontend = ""), field: "frontend", says: /required/, ctx: { frontend: undefined } },
    { name: "256 characters", mut: (i) => void (i.frontend = long.slice(1)), field: null },
    { name: "257 characters", mut: (i) => void (i.frontend = long), field: "frontend", says: /256/ },
  ]);
});

t.test("amount: a positive safe integer of minor units", async (t) => {
  runTable(t, [
    { name: "1", mut: (i) => void (i.amountMinor = 1), field: null },
    { name: "1050", mut: (i) => void (i.amountMinor = 1050), field: null },
    { name: "MAX_SAFE_INTEGER", mut: (i) => void (i.amountMinor = Number.MAX_SAFE_INTEGER), field: null },
    { name: "0", mut: (i) => void (i.amountMinor = 0), field: "amount", says: /positive/ },
    { name: "-1", mut: (i) => void (i.amountMinor = -1), field: "amount" },
    { name: "10.5", mut: (i) => void (i.amountMinor = 10.5), field: "amount" },
    { name: "NaN", mut: (i) => void (i.amountMinor = Number.NaN), field: "amount" },
    { name: "Infinity", mut: (i) => void (i.amountMinor = Number.POSITIVE_INFINITY), field: "amount" },
    { name: "MAX_SAFE_INTEGER + 1", mut: (i) => void (i.amountMinor = Number.MAX_SAFE_INTEGER + 1), field: "amount" },
  ]);
});

t.test('version: exactly "1.0"', async (t) => {
  runTable(t, [
    { name: "1.0", mut: (i) => void (i.version = "1.0"), field: null },
    { name: "1", mut: (i) => void (i.version = "1"), field: "version", says: /1\.0/ },
    { name: "1.00", mut: (i) => void (i.version = "1.00"), field: "version" },
    { name: "2.0", mut: (i) => void (i.version = "2.0"), field: "version" },
    { name: " 1.0", mut: (i) => void (i.version = " 1.0"), field: "version" },
    { name: "missing", mut: (i) => void (i.version = ""), field: "version" },
  ]);
});

t.test("transaction_type and reference_id (required for refund)", async (t) => {
  runTable(t, [
    { name: "unknown type", mut: (i) => void (i.type = undefined), field: "transaction_type" },
    { name: "sale without reference", mut: (i) => void (i.referenceId = ""), field: null },
    { name: "sale with reference", mut: (i) => void (i.referenceId = "123"), field: null },
    { name: "payout without reference", mut: (i) => ((i.type = "payout"), (i.referenceId = "")), field: null },
    { name: "refund with trace_id", mut: (i) => ((i.type = "refund"), (i.referenceId = "123456")), field: null },
    { name: "refund with order_id", mut: (i) => ((i.type = "refund"), (i.referenceId = "ord-1000")), field: null },
    { name: "refund without reference", mut: (i) => ((i.type = "refund"), (i.referenceId = "")), field: "reference_id", says: /required/ },
    { name: "refund with blank reference", mut: (i) => ((i.type = "refund"), (i.referenceId = "   ")), field: "reference_id", says: /required/ },
  ]);
});

t.test("e-mail, requester_ip and error_code", async (t) => {
  runTable(t, [
    { name: "e-mail missing", mut: (i) => void (i.customer.email = ""), field: "email", says: /required/ },
    { name: "e-mail without @", mut: (i) => void (i.customer.email = "jane.example.com"), field: "email" },
    { name: "e-mail without domain", mut: (i) => void (i.customer.email = "jane@"), field: "email" },
    { name: "e-mail with plus", mut: (i) => void (i.customer.email = "jane+cashier@example.co.uk"), field: null },
    { name: "IPv4", mut: (i) => void (i.customer.requesterIp = "203.0.113.7"), field: null },
    { name: "IPv6", mut: (i) => void (i.customer.requesterIp = "2001:db8::1"), field: null },
    { name: "IPv4 out of range", mut: (i) => void (i.customer.requesterIp = "999.1.1.1"), field: "requester_ip" },
    { name: "host name", mut: (i) => void (i.customer.requesterIp = "localhost"), field: "requester_ip" },
    { name: "error_code 5", mut: (i) => void (i.errorCode = 5), field: null },
    { name: "error_code 10 digits", mut: (i) => void (i.errorCode = 9_999_999_999), field: null },
    { name: "error_code 11 digits", mut: (i) => void (i.errorCode = 10_000_000_000), field: "error_code" },
    { name: "error_code negative", mut: (i) => void (i.errorCode = -1), field: "error_code" },
  ]);
});

t.test("URLs: return_url required, both http(s) and at most 256", async (t) => {
  const url256 = `https://merchant.example/${"p".repeat(256 - 25)}`;
  t.equal(url256.length, 256);
  runTable(t, [
    { name: "https return_url", mut: (i) => void (i.returnUrl = "https://merchant.example/return"), field: null },
    { name: "http return_url", mut: (i) => void (i.returnUrl = "http://127.0.0.1:9000/return?x=1"), field: null },
    { name: "upper-case scheme", mut: (i) => void (i.returnUrl = "HTTPS://merchant.example/"), field: null },
    { name: "return_url missing", mut: (i) => void (i.returnUrl = ""), field: "return_url", says: /required/ },
    { name: "return_url relative", mut: (i) => void (i.returnUrl = "/return"), field: "return_url" },
    { name: "return_url no scheme", mut: (i) => void (i.returnUrl = "merchant.example/return"), field: "return_url" },
    { name: "return_url ftp", mut: (i) => void (i.returnUrl = "ftp://merchant.example/return"), field: "return_url", says: /http/ },
    { name: "return_url javascript:", mut: (i) => void (i.returnUrl = "javascript:alert(1)"), field: "return_url" },
    { name: "return_url 256", mut: (i) => void (i.returnUrl = url256), field: null },
    { name: "return_url 257", mut: (i) => void (i.returnUrl = `${url256}p`), field: "return_url", says: /256/ },
    { name: "notification_url absent", mut: (i) => void (i.notificationUrl = ""), field: null },
    { name: "notification_url https", mut: (i) => void (i.notificationUrl = "https://merchant.example/hook"), field: null },
    { name: "notification_url mailto:", mut: (i) => void (i.notificationUrl = "mailto:ops@merchant.example"), field: "notification_url" },
    { name: "notification_url not a URL", mut: (i) => void (i.notificationUrl = "hook"), field: "notification_url" },
    { name: "notification_url 256", mut: (i) => void (i.notificationUrl = url256), field: null },
    { name: "notification_url 257", mut: (i) => void (i.notificationUrl = `${url256}p`), field: "notification_url" },
  ]);
});

t.test("identifiers echoed back as sent hold no card number: refused naming the member", async (t) => {
  const says = /must not hold a card number/;
  runTable(t, [
    { name: "order_id a card", mut: (i) => void (i.orderId = "4111111111111111"), field: "order_id", says },
    { name: "order_id a card in groups", mut: (i) => void (i.orderId = "ord 4111 1111 1111 1111"), field: "order_id", says },
    { name: "pin with a card", mut: (i) => void (i.customer.pin = "cust-5555-5555-5555-4444"), field: "pin", says },
    { name: "email with a card", mut: (i) => void (i.customer.email = "4111111111111111@example.com"), field: "email", says },
    { name: "return_url with a card", mut: (i) => void (i.returnUrl = "https://m.example/r?c=4111%201111%201111%201111"), field: "return_url", says },
    { name: "notification_url with a card", mut: (i) => void (i.notificationUrl = "https://m.example/n/378282246310005"), field: "notification_url", says },
    {
      name: "reference_id a card",
      mut: (i) => {
        i.type = "refund";
        i.referenceId = "4111111111111111";
      },
      field: "reference_id",
      says,
    },
    { name: "pin a 19-digit id", mut: (i) => void (i.customer.pin = "1541815603606036480"), field: null },
    { name: "order_id with a date", mut: (i) => void (i.orderId = "ord-2030-12-31-0042"), field: null },
  ]);
});

t.test("lengths of seed 2.1 varchar fields", async (t) => {
  const limits: [field: string, max: number, set: (i: ProcessInput, v: string) => void, required: boolean][] = [
    ["merchant_id", 50, (i, v) => void (i.merchantId = v), true],
    ["order_id", 50, (i, v) => void (i.orderId = v), true],
    ["pin", 50, (i, v) => void (i.customer.pin = v), true],
    ["address", 50, (i, v) => void (i.customer.address = v), false],
    ["city", 50, (i, v) => void (i.customer.city = v), false],
    ["first_name", 25, (i, v) => void (i.customer.firstName = v), true],
    ["last_name", 25, (i, v) => void (i.customer.lastName = v), true],
    ["reference_id", 50, (i, v) => void (i.referenceId = v), false],
    ["error_details", 256, (i, v) => void (i.errorDetails = v), false],
  ];
  for (const [field, max, set, required] of limits) {
    runTable(t, [
      { name: `${field} at ${max}`, mut: (i) => set(i, "a".repeat(max)), field: null },
      { name: `${field} at ${max + 1}`, mut: (i) => set(i, "a".repeat(max + 1)), field, says: new RegExp(`${max}`) },
      required ? { name: `${field} empty`, mut: (i) => set(i, ""), field, says: /required/ } : { name: `${field} empty`, mut: (i) => set(i, ""), field: null },
      required
        ? { name: `${field} blank`, mut: (i) => set(i, "   "), field, says: /required/ }
        : { name: `${field} 1 character`, mut: (i) => set(i, "a"), field: null },
    ]);
  }
  const email = (n: number) => `${"j".repeat(n - "@example.com".length)}@example.com`;
  runTable(t, [
    { name: "email at 50", mut: (i) => void (i.customer.email = email(50)), field: null },
    { name: "email at 51", mut: (i) => void (i.customer.email = email(51)), field: "email", says: /50/ },
  ]);
});

t.test("every violation comes back at once, one per field, in the rule order", async (t) => {
  const i = base();
  i.card.number = "4111111111111112";
  i.card.expiry = "13/2030";
  i.card.cvv = "";
  i.customer.dob = "02/30/1990";
  i.customer.phone = "123456";
  i.customer.country = "gb";
  i.customer.state = "XX";
  i.customer.zip = "SW1A 1AA";
  i.customer.email = "nope";
  i.customer.firstName = "x".repeat(26);
  i.customer.lastName = "";
  i.currency = "GBP";
  i.amountMinor = 0;
  i.version = "2.0";
  i.returnUrl = "ftp://merchant.example/";
  i.orderId = "";
  const got = check(i);
  const expected = new Set([
    "card_number",
    "card_exp",
    "cvv",
    "dob",
    "phone",
    "country",
    "state",
    "zip",
    "email",
    "first_name",
    "last_name",
    "currency",
    "amount",
    "version",
    "return_url",
    "order_id",
  ]);
  const fields = got.map((v) => v.field);
  t.same(new Set(fields), expected, "every faulty field named");
  t.equal(fields.length, expected.size, "one violation per field");
  t.same(
    fields,
    WIRE_VALIDATED_FIELDS.filter((f) => expected.has(f)),
    "in the table's field order",
  );
  for (const v of got) t.ok(v.description.length > 0, `${v.field} described`);
});

t.test("an empty request names every required field and never throws", async (t) => {
  const i: ProcessInput = {
    merchantId: "",
    orderId: "",
    type: undefined,
    amountMinor: 0,
    currency: "",
    card: { number: "", cvv: "", expiry: "" },
    customer: { pin: "", email: "", firstName: "", lastName: "", dob: "", phone: "", address: "", city: "", country: "", state: "", zip: "", requesterIp: "" },
    frontend: "",
    returnUrl: "",
    notificationUrl: "",
    referenceId: "",
    timestamp: 0,
    version: "",
    errorCode: 0,
    errorDetails: "",
  };
  let got: ReturnType<typeof validateProcess> = [];
  t.doesNotThrow(() => void (got = check(i, { frontend: undefined })));
  t.same(
    new Set(got.map((v) => v.field)),
    new Set([
      "merchant_id",
      "order_id",
      "transaction_type",
      "amount",
      "currency",
      "card_number",
      "card_exp",
      "pin",
      "email",
      "country",
      "first_name",
      "last_name",
      "frontend",
      "return_url",
      "version",
    ]),
  );
});
