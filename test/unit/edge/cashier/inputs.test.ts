/** What the Cashier reads from its forms and addresses: amounts exactly, card fields by shape, tokens, the parent origin, redacted paths. */
import t from "tap";
import { amountInputValue, parseAmountInput } from "../../../../edge/cashier/amount-input.ts";
import { brandOf, cardNumberInput, cvvInput, expiryInput, holderInput } from "../../../../edge/cashier/card-input.ts";
import { isToken, redactPath, sessionPath } from "../../../../edge/cashier/paths.ts";
import { declaredParent } from "../../../../edge/pages/kit/security.ts";
import { createLimiter } from "../../../../edge/cashier/rate-limits.ts";

t.test("amounts are read exactly, with a point or a comma, never more decimals than the currency has", async (t) => {
  const rows: [string, string, bigint | undefined][] = [
    ["25", "USD", 2500n],
    ["25.5", "USD", 2550n],
    ["25,50", "EUR", 2550n],
    [" 1 000 ", "USD", 100000n],
    ["1000", "JPY", 1000n],
    ["10.5", "JPY", undefined],
    ["5.125", "BHD", 5125n],
    ["0", "USD", undefined],
    ["-5", "USD", undefined],
    ["1e3", "USD", undefined],
    ["12.345", "USD", undefined],
    ["99999999999999.99", "USD", undefined],
    ["", "USD", undefined],
  ];
  for (const [text, currency, minor] of rows) {
    const r = parseAmountInput(text, currency);
    t.same(r.ok ? r.minor : undefined, minor, `${JSON.stringify(text)} ${currency}`);
  }
  t.equal(amountInputValue(2550n, "USD"), "25.50");
  t.equal(amountInputValue(1000n, "JPY"), "1000");
});

t.test("amounts are read by the page's language; two readings are refused as ambiguous, not guessed", async (t) => {
  const rows: [string, string, string, bigint | "ambiguous" | "shape"][] = [
    ["1.234,5", "EUR", "de", 123450n],
    ["1.234", "EUR", "de", 123400n],
    ["1.234.567,89", "EUR", "de", 123456789n],
    ["25,5", "EUR", "de", 2550n],
    ["25.5", "EUR", "de", 2550n],
    ["1,234", "EUR", "de", "ambiguous"],
    ["1,234.5", "USD", "en", 123450n],
    ["1,234", "USD", "en", 123400n],
    ["1.234,5", "USD", "en", 123450n],
    ["1.234", "USD", "en", "ambiguous"],
    ["1 234,5", "EUR", "fr", 123450n],
    ["1\u202F234,5", "EUR", "fr", 123450n],
    ["1.234", "BHD", "en", 1234n],
    ["1,234", "BHD", "en", "ambiguous"],
    ["1.234", "BHD", "de", "ambiguous"],
    ["1.000", "JPY", "de", 1000n],
    ["1,000", "JPY", "en", 1000n],
    ["\u0661\u066C\u0662\u0663\u0664\u066B\u0665", "USD", "ar", 123450n],
    ["12.34.567", "EUR", "de", "shape"],
    ["1.2345", "EUR", "de", "shape"],
    ["1.234,56,7", "EUR", "de", "shape"],
  ];
  for (const [raw, currency, locale, want] of rows) {
    const text = JSON.parse(`"${raw}"`) as string;
    const r = parseAmountInput(text, currency, locale);
    t.same(r.ok ? r.minor : r.reason, want, `${JSON.stringify(text)} ${currency} ${locale}`);
  }
  t.equal(amountInputValue(123450n, "EUR", "de"), "1234,50", "written back in the page's language, without grouping");
  t.equal(amountInputValue(123450n, "USD", "en"), "1234.50");
});

t.test("card fields by shape", async (t) => {
  t.same(cardNumberInput("4111 1111 1111 1111"), { ok: true, value: "4111111111111111" });
  t.same(cardNumberInput("4111-abc"), { ok: false });
  t.same(cardNumberInput("4111 1111 1111 1112"), { ok: false }, "a wrong check digit (Luhn)");
  t.same(expiryInput("12/30"), { ok: true, value: "12/2030" });
  t.same(expiryInput("1 / 2031"), { ok: true, value: "01/2031" });
  t.same(expiryInput("0130"), { ok: true, value: "01/2030" });
  t.same(expiryInput("13/30"), { ok: false });
  t.same(cvvInput("123"), { ok: true, value: "123" });
  t.same(cvvInput("12"), { ok: false });
  t.same(holderInput("  Jane   Doe "), { ok: true, value: "Jane Doe" });
  t.same(holderInput("4111111111111111"), { ok: false }, "a number typed into the name is refused, not stored");
  t.equal(brandOf("4111 1111"), "Visa");
  t.equal(brandOf("5555555555554444"), "Mastercard");
});

t.test("tokens, the declared parent, paths and their log form", async (t) => {
  t.ok(isToken("A".repeat(43)));
  t.notOk(isToken("short"));
  t.notOk(isToken("../../etc/passwd/aaaaaaaaaaaaaaaaaa"));
  t.equal(declaredParent("https://shop.example", ["https://shop.example"]), "https://shop.example");
  t.equal(declaredParent("https://evil.example", ["https://shop.example"]), undefined);
  t.equal(declaredParent(["https://shop.example", "x"], ["https://shop.example"]), undefined, "a repeated parameter is no declaration");
  t.equal(sessionPath("T", "deposit", "https://a.example:8443"), "/cashier/s/T/deposit?parent=https%3A%2F%2Fa.example%3A8443");
  t.equal(redactPath(`/cashier/s/${"x".repeat(43)}/result/5`), "/cashier/s/[session]/result/5");
  // The router matches any case, and a 404 is logged too: no spelling keeps a token in the log.
  t.equal(redactPath(`/Cashier/S/${"x".repeat(43)}/deposit`), "/cashier/s/[session]/deposit");
  t.equal(redactPath(`//cashier/s/${"x".repeat(43)}/deposit`), "//cashier/s/[token]/deposit");
  t.equal(redactPath(`/cashier//s/${"y".repeat(43)}`), "/cashier//s/[token]");
  t.equal(redactPath("/cashier/s/short/deposit"), "/cashier/s/[session]/deposit");
  t.equal(redactPath(`/cashier/autologin/${"x".repeat(43)}`), "/cashier/autologin/[token]");
  t.equal(redactPath("/api/process"), "/api/process");
});

t.test("a limiter admits its points, then says how long to wait", async (t) => {
  const limiter = createLimiter({ points: 2, duration: 60, blockDuration: 120 });
  t.equal(await limiter.check("ip"), undefined);
  t.equal(await limiter.hit("ip"), undefined);
  t.equal(await limiter.hit("ip"), undefined);
  const wait = await limiter.hit("ip");
  t.ok(wait !== undefined && wait > 60, `refused, blocked for the block duration (${wait} s)`);
  t.ok((await limiter.check("ip")) !== undefined, "and checking says so without counting");
  t.equal(await limiter.hit("other"), undefined, "another key is not affected");
});
