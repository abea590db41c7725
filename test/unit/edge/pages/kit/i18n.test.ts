/**
 * The message catalogues: every language has every key and each message
 * parses; plurals follow each language's categories; amounts are formatted by
 * the locale from the integer, with the currency's own decimals.
 */
import t from "tap";
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGUES, LOCALES, majorString, translator } from "../../../../../edge/pages/kit/i18n.ts";

t.test("every catalogue has exactly English's keys, and every message parses", async (t) => {
  const keys = Object.keys(CATALOGUES.en).sort();
  for (const locale of LOCALES) {
    t.same(Object.keys(CATALOGUES[locale]).sort(), keys, `${locale} has every key and no other`);
    for (const [key, source] of Object.entries(CATALOGUES[locale])) {
      t.doesNotThrow(
        () =>
          new IntlMessageFormat(source, locale).format({
            count: 1,
            bytes: 1,
            min: "1",
            max: "2",
            amount: "1",
            currency: "USD",
            name: "n",
            brand: "b",
            last4: "1",
            expiry: "e",
            decimals: 2,
            date: "d",
            status: "s",
            card: "c",
            seconds: 2,
            decimal: ",",
            example: "1234,50",
          }),
        `${locale} ${key}`,
      );
    }
  }
});

t.test("plurals by each language's rules", async (t) => {
  const rows: [string, number, string][] = [
    ["en", 1, "There is 1 problem with what you entered"],
    ["en", 3, "There are 3 problems with what you entered"],
    ["de", 1, "Bei Ihren Angaben gibt es 1 Problem"],
    ["de", 2, "Bei Ihren Angaben gibt es 2 Probleme"],
    ["ar", 1, "توجد مشكلة واحدة فيما أدخلته"],
    ["ar", 2, "توجد مشكلتان فيما أدخلته"],
    ["ar", 3, "توجد 3 مشكلات فيما أدخلته"],
    ["ar", 11, "توجد 11 مشكلة فيما أدخلته"],
  ];
  for (const [locale, count, text] of rows) t.equal(translator(locale as "en").t("kit.errorSummary", { count }), text, `${locale} ${count}`);
  t.equal(translator("en").t("kit.savedCards", { count: 0 }), "No saved cards");
  t.equal(translator("ar").t("kit.savedCards", { count: 2 }), "بطاقتان محفوظتان");
});

t.test("amounts: exact digits, the currency's decimals, the locale's separators", async (t) => {
  const rows: [string, bigint, string, string][] = [
    ["en", 1050n, "USD", "10.50 USD"],
    ["en", 1000n, "JPY", "1000 JPY"],
    ["en", 5000n, "BHD", "5.000 BHD"],
    ["en", 5n, "EUR", "0.05 EUR"],
    ["en", 123456789012345678n, "USD", "1,234,567,890,123,456.78 USD"],
    ["de", 1050n, "EUR", "10,50 EUR"],
    ["de", 12345678n, "EUR", "123.456,78 EUR"],
    ["ar", 1050n, "USD", "10.50 USD"],
  ];
  for (const [locale, minor, currency, shown] of rows) t.equal(translator(locale as "en").amount(minor, currency), shown, `${locale} ${minor} ${currency}`);
  t.equal(majorString(7n, 2), "0.07");
  t.equal(majorString(-1050n, 2), "-10.50");
  t.equal(majorString(42n, 0), "42");
});

t.test("direction: Arabic is written right to left", async (t) => {
  t.same(
    LOCALES.map((l) => [l, translator(l).dir]),
    [
      ["en", "ltr"],
      ["de", "ltr"],
      ["ar", "rtl"],
      ["es", "ltr"],
      ["fr", "ltr"],
      ["pt-BR", "ltr"],
      ["it", "ltr"],
      ["tr", "ltr"],
    ],
  );
});

t.test("direction marks only where the text runs right to left: a left-to-right catalogue has none to copy along", async (t) => {
  const marks = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  for (const locale of LOCALES.filter((l) => translator(l).dir === "ltr")) {
    const marked = Object.entries(CATALOGUES[locale])
      .filter(([, text]) => marks.test(text))
      .map(([key]) => key);
    t.same(marked, [], `${locale}: no bidi marks`);
  }
  t.ok(
    Object.values(CATALOGUES.ar).some((text) => marks.test(text)),
    "Arabic keeps them around Latin terms",
  );
});
