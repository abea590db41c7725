/**
 * The hosted pages' languages, file by file (edge/pages/messages and
 * edge/cashier/messages): every language has a file with exactly English's
 * keys; every message takes the same placeholders as English's (names and
 * kinds), keeps English's exact plural cases (=0) and uses only its own
 * language's plural categories; none is empty or left in English. Amounts in
 * the added languages are written as the locale writes money, from the
 * integer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { IntlMessageFormat } from "intl-messageformat";
import { LOCALES, translator } from "../../../../../edge/pages/kit/i18n.ts";

const ROOT = join(import.meta.dirname, "../../../../..");
const DIRS = ["edge/pages/messages", "edge/cashier/messages"];

type Catalogue = Record<string, string>;

function catalogues(dir: string): Map<string, Catalogue> {
  const files = readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".json"));
  return new Map(files.map((f) => [f.slice(0, -".json".length), JSON.parse(readFileSync(join(ROOT, dir, f), "utf8")) as Catalogue]));
}

type Node = ReturnType<IntlMessageFormat["getAst"]>[number];

/** The arguments of a message as "name:kind" (kinds by intl-messageformat's element types), nested ones included, sorted. */
function argumentsOf(nodes: readonly Node[], out = new Set<string>()): string[] {
  for (const n of nodes) {
    if ("value" in n && typeof n.value === "string" && n.type !== 0) out.add(`${n.value}:${n.type}`);
    if ("options" in n) for (const o of Object.values(n.options)) argumentsOf((o as { value: Node[] }).value, out);
  }
  return [...out].sort();
}

/** Each plural argument's options ("count": ["=0", "one", "other"]), nested ones included. */
function pluralOptions(nodes: readonly Node[], out = new Map<string, string[]>()): Map<string, string[]> {
  for (const n of nodes) {
    if (n.type === 6) out.set(n.value, Object.keys(n.options));
    if ("options" in n) for (const o of Object.values(n.options)) pluralOptions((o as { value: Node[] }).value, out);
  }
  return out;
}

const ast = (source: string, locale: string) => new IntlMessageFormat(source, locale).getAst();

t.test("every language has a file in each folder, with exactly English's keys", async (t) => {
  for (const dir of DIRS) {
    const all = catalogues(dir);
    t.same([...all.keys()].sort(), [...LOCALES].sort(), `${dir}: one file per language, no other`);
    const keys = Object.keys(all.get("en")!).sort();
    for (const [locale, c] of all) {
      const have = Object.keys(c);
      t.same(
        keys.filter((k) => !(k in c)),
        [],
        `${dir}/${locale}: no key missing`,
      );
      t.same(
        have.filter((k) => !keys.includes(k)),
        [],
        `${dir}/${locale}: no key English lacks`,
      );
    }
  }
});

t.test("every message has English's placeholders and plural cases, in its own language's categories, and is not empty", async (t) => {
  for (const dir of DIRS) {
    const all = catalogues(dir);
    const en = all.get("en")!;
    for (const [locale, c] of all) {
      const rules = new Intl.PluralRules(locale);
      const categories = new Set<string>(rules.resolvedOptions().pluralCategories);
      const problems: string[] = [];
      for (const [key, source] of Object.entries(c)) {
        if (source.trim().length === 0) problems.push(`${key}: empty`);
        if (!(key in en)) continue;
        const mine = ast(source, locale);
        const english = ast(en[key], "en");
        const [a, b] = [argumentsOf(mine).join(" "), argumentsOf(english).join(" ")];
        if (a !== b) problems.push(`${key}: placeholders ${a || "none"}, English's ${b || "none"}`);
        const plurals = pluralOptions(mine);
        for (const [name, englishOptions] of pluralOptions(english)) {
          const options = plurals.get(name) ?? [];
          if (!options.includes("other")) problems.push(`${key}: {${name}} has no "other"`);
          // English's =0 must stay a case of its own: as =0, or as a category that holds that number alone (Arabic's "zero").
          for (const exact of englishOptions.filter((o) => o.startsWith("="))) {
            const category = rules.select(Number(exact.slice(1)));
            if (!options.includes(exact) && (category === "other" || !options.includes(category))) problems.push(`${key}: {${name}} lost the case ${exact}`);
          }
          for (const o of options.filter((o) => !o.startsWith("=") && !categories.has(o)))
            problems.push(`${key}: {${name}} has "${o}", not a category of ${locale}`);
        }
      }
      t.same(problems, [], `${dir}/${locale}`);
    }
  }
});

/** Words that give away a sentence left in English; none is a word of the other languages. */
const ENGLISH =
  /\b(the|your|you|and|with|card|cards|payment|deposit|withdrawal|amount|enter|please|again|cancel|remove|try|check|not|this|was|been|from|here|there|cannot)\b/i;
/** What every language writes alike: brand names, codes, and the form's field names and values. */
const SHARED = /3-D Secure|CVV|application\/x-www-form-urlencoded|\bresult\b|\bapprove\b|\bfail\b/g;
/** Keys whose text is the same in every language (no words, only placeholders). */
const SAME_EVERYWHERE = new Set(["kit.amount"]);
/** Words a language writes as English does ("Date" is French too). */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = { fr: ["cashier.receipt.date"] };

t.test("no message is left in English in another language's catalogue", async (t) => {
  for (const dir of DIRS) {
    const all = catalogues(dir);
    const en = all.get("en")!;
    for (const [locale, c] of all) {
      if (locale === "en") continue;
      const left = Object.entries(c)
        .filter(([key]) => !SAME_EVERYWHERE.has(key) && !SAME_AS_ENGLISH[locale]?.includes(key))
        .filter(([key, source]) => {
          const words = source.replace(/\{[^{}]*\}/g, " ").replace(SHARED, " ");
          return source === en[key] || ENGLISH.test(words);
        })
        .map(([key]) => key);
      t.same(left, [], `${dir}/${locale}: nothing in English`);
    }
  }
  t.ok(ENGLISH.test("Enter the card number"), "the heuristic does catch English");
});

t.test("plurals of the added languages", async (t) => {
  const rows: [string, string, Record<string, number>, string][] = [
    ["es", "kit.savedCards", { count: 1 }, "1 tarjeta guardada"],
    ["es", "kit.savedCards", { count: 0 }, "No hay tarjetas guardadas"],
    ["fr", "kit.errorSummary", { count: 1 }, "Votre saisie comporte 1 problème"],
    ["fr", "kit.errorSummary", { count: 2 }, "Votre saisie comporte 2 problèmes"],
    ["pt-BR", "kit.savedCards", { count: 2 }, "2 cartões salvos"],
    ["it", "cashier.notice.tooMany.body", { seconds: 1 }, "Attendi 1 secondo prima di riprovare."],
    ["it", "cashier.notice.tooMany.body", { seconds: 30 }, "Attendi 30 secondi prima di riprovare."],
    ["tr", "kit.savedCards", { count: 3 }, "3 kayıtlı kart"],
  ];
  for (const [locale, key, values, text] of rows)
    t.equal(translator(locale as "en").t(key as "kit.savedCards", values), text, `${locale} ${key} ${JSON.stringify(values)}`);
});

t.test("amounts in the added languages: as the locale writes money, every digit from the integer", async (t) => {
  const nb = "\u00a0";
  const narrow = "\u202f";
  const rows: [string, bigint, string, string][] = [
    ["fr", 2500n, "EUR", `25,00${nb}€`],
    ["fr", 123456789012345678n, "EUR", `1${narrow}234${narrow}567${narrow}890${narrow}123${narrow}456,78${nb}€`],
    ["es", 2500n, "EUR", `25,00${nb}€`],
    ["es", 123456n, "EUR", `1234,56${nb}€`],
    ["pt-BR", 2500n, "USD", `US$${nb}25,00`],
    ["pt-BR", 123456n, "BRL", `R$${nb}1.234,56`],
    ["it", 5000n, "BHD", `5,000${nb}BHD`],
    ["it", 7n, "EUR", `0,07${nb}€`],
    ["tr", 1000n, "JPY", "¥1.000"],
    ["tr", 2550n, "TRY", "₺25,50"],
    ["de", 2500n, "EUR", "25,00 EUR"],
  ];
  for (const [locale, minor, currency, shown] of rows) t.equal(translator(locale as "en").amount(minor, currency), shown, `${locale} ${minor} ${currency}`);
  t.equal(translator("fr").amount(2500n, ""), "25,00 ", "no currency code: the number alone, not an error");
});
