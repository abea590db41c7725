/**
 * The console's catalogues: German and Arabic have exactly English's keys,
 * every message parses and takes the same placeholders as English's, and a
 * page in Arabic is written right to left in Arabic.
 */
import t from "tap";
import { IntlMessageFormat } from "intl-messageformat";
import { CONSOLE_CATALOGUES, CONSOLE_LOCALES, consoleTranslator } from "../../../../../edge/backoffice/i18n.ts";
import { signInPage } from "../../../../../edge/backoffice/views/gate.ts";

/** The argument names of an ICU message ({name}, {name, plural, ...}), nested ones included. */
function placeholders(source: string): string[] {
  return [...new Set([...source.matchAll(/\{\s*([a-zA-Z]+)\s*[,}]/g)].map((m) => m[1]))].sort();
}

t.test("every catalogue has exactly English's keys and placeholders, and every message formats", async (t) => {
  const en = CONSOLE_CATALOGUES.en;
  const keys = Object.keys(en).sort();
  const values = {
    login: "ann",
    by: "lead",
    merchants: "m-test",
    role: "admin",
    seconds: 3,
    min: 12,
    count: 2,
    trace: 7,
    minutes: 5,
    hours: 2,
    attempts: 4,
    processors: 2,
    rate: 80,
    currency: "USD",
    age: "5 min",
    reason: "x",
    merchant: "m",
    name: "n",
    line: 1,
    rows: 3,
    id: 4,
    problem: "p",
    field: "f",
    max: "2",
    from: "a",
    fields: "from, to",
    connector: "checkout",
    capabilities: "sale, refund",
    n: 2,
    list: "a, b",
    label: "rule 2",
    amount: "1000",
    what: "This sale",
    rule: "eu-cards",
    value: "declined",
    remaining: "5.00 USD",
    example: "12.50",
    card: "411111******1111",
    refund: "9",
    decision: "Approve",
    totals: "10.00 USD",
    refused: 2,
    examined: 3,
    since: "2026-11-22 11:37",
    frontend: "plat-usd",
    details: "Insufficient funds",
  };
  for (const locale of CONSOLE_LOCALES) {
    const catalogue = CONSOLE_CATALOGUES[locale];
    t.same(Object.keys(catalogue).sort(), keys, `${locale} has every key and no other`);
    for (const [key, source] of Object.entries(catalogue)) {
      t.same(placeholders(source), placeholders(en[key]), `${locale} ${key}: the same placeholders`);
      t.doesNotThrow(() => new IntlMessageFormat(source, locale).format(values), `${locale} ${key} formats`);
    }
  }
});

t.test("plurals by each language's rules; an Arabic page is right to left", async (t) => {
  t.equal(consoleTranslator("en").t("bo.account.passkeys", { count: 1 }), "1 passkey");
  t.equal(consoleTranslator("de").t("bo.merchant.hours", { hours: 24 }), "24 Stunden");
  t.equal(consoleTranslator("ar").t("bo.merchant.hours", { hours: 2 }), "ساعتين");
  const page = signInPage({ tr: consoleTranslator("ar"), nonce: "n", csrf: "c" }, {}).value;
  t.match(page, /<html lang="ar" dir="rtl">/);
  t.match(page, /<h1>تسجيل الدخول<\/h1>/);
});
