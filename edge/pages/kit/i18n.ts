/**
 * Every text a customer reads comes from a message catalogue
 * (edge/pages/messages/<locale>.json) through intl-messageformat: ICU plurals
 * with each language's own categories (Arabic has six), and numbers and
 * amounts formatted by the locale's rules. A key missing in a catalogue falls
 * back to English (a test keeps the catalogues complete).
 */
import { IntlMessageFormat } from "intl-messageformat";
import cashierAr from "../../cashier/messages/ar.json" with { type: "json" };
import cashierDe from "../../cashier/messages/de.json" with { type: "json" };
import cashierEn from "../../cashier/messages/en.json" with { type: "json" };
import cashierEs from "../../cashier/messages/es.json" with { type: "json" };
import cashierFr from "../../cashier/messages/fr.json" with { type: "json" };
import cashierIt from "../../cashier/messages/it.json" with { type: "json" };
import cashierPtBr from "../../cashier/messages/pt-BR.json" with { type: "json" };
import cashierTr from "../../cashier/messages/tr.json" with { type: "json" };
import kitAr from "../messages/ar.json" with { type: "json" };
import kitDe from "../messages/de.json" with { type: "json" };
import kitEn from "../messages/en.json" with { type: "json" };
import kitEs from "../messages/es.json" with { type: "json" };
import kitFr from "../messages/fr.json" with { type: "json" };
import kitIt from "../messages/it.json" with { type: "json" };
import kitPtBr from "../messages/pt-BR.json" with { type: "json" };
import kitTr from "../messages/tr.json" with { type: "json" };
import { currencyExponent } from "../../../engine/shared/money.ts";

// The kit's and the challenge's texts, then each face's own (edge/<face>/messages/), as one catalogue per language.
const en = { ...kitEn, ...cashierEn };
const de = { ...kitDe, ...cashierDe };
const ar = { ...kitAr, ...cashierAr };
const es = { ...kitEs, ...cashierEs };
const fr = { ...kitFr, ...cashierFr };
const ptBr = { ...kitPtBr, ...cashierPtBr };
const it = { ...kitIt, ...cashierIt };
const tr = { ...kitTr, ...cashierTr };

/**
 * The languages the hosted pages (Cashier, 3-D Secure pages) speak, English
 * first (the last resort). Portuguese is Brazil's: pt and pt-PT are served it
 * (locale.ts), closer to them than English.
 */
export const LOCALES = ["en", "de", "ar", "es", "fr", "pt-BR", "it", "tr"] as const;
export type Locale = (typeof LOCALES)[number];
export type MessageKey = keyof typeof en;

/** Languages written right to left. */
const RTL: ReadonlySet<Locale> = new Set(["ar"]);

/**
 * The languages whose amounts keep the form they had before the others came:
 * the number then the ISO code (`12.345,67 EUR`), which CONTRACT's examples,
 * the Backoffice and these pages' tests use. The other languages write an
 * amount as the locale writes money (`25,00 €`, `US$ 25,00`), through Intl.
 */
const CODE_AFTER: ReadonlySet<Locale> = new Set(["en", "de", "ar"]);

export const CATALOGUES: Readonly<Record<Locale, Readonly<Record<string, string>>>> = { en, de, ar, es, fr, "pt-BR": ptBr, it, tr };

export type MessageValues = Record<string, string | number | bigint>;

/** The texts and formats of one language. */
export interface Translator {
  readonly locale: Locale;
  readonly dir: "ltr" | "rtl";
  /** The message `key` with `values` filled in. */
  t(key: MessageKey, values?: MessageValues): string;
  /** An amount in minor units as the locale writes it, with the currency's own decimals and its ISO code. */
  amount(minor: bigint, currency: string): string;
}

/** Minor units -> the exact decimal string ("1050" USD -> "10.50"), never through a float. */
export function majorString(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, "0");
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return negative ? `-${whole}` : whole;
}

function build(locale: Locale): Translator {
  const formats = new Map<string, IntlMessageFormat>();
  const numberFormats = new Map<number, Intl.NumberFormat>();
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const message = (key: MessageKey): IntlMessageFormat => {
    let f = formats.get(key);
    if (!f) {
      const source = CATALOGUES[locale][key] ?? en[key];
      f = new IntlMessageFormat(source, locale);
      formats.set(key, f);
    }
    return f;
  };
  const t = (key: MessageKey, values?: MessageValues): string => String(message(key).format(values));
  return {
    locale,
    dir: RTL.has(locale) ? "rtl" : "ltr",
    t,
    amount(minor, currency) {
      const exponent = currencyExponent(currency) ?? 2;
      if (!CODE_AFTER.has(locale) && /^[A-Z]{3}$/.test(currency)) {
        let mf = moneyFormats.get(currency);
        if (!mf) {
          // The decimals are the currency's as Cashier counts them (money.ts), not CLDR's, which differ for a few.
          mf = new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
          moneyFormats.set(currency, mf);
        }
        return mf.format(majorString(minor, exponent) as Intl.StringNumericLiteral);
      }
      let nf = numberFormats.get(exponent);
      if (!nf) {
        nf = new Intl.NumberFormat(locale, { minimumFractionDigits: exponent, maximumFractionDigits: exponent, useGrouping: "min2" });
        numberFormats.set(exponent, nf);
      }
      // A decimal string is formatted exactly (Intl.NumberFormat v3): no digit of a large amount is lost.
      const amount = nf.format(majorString(minor, exponent) as Intl.StringNumericLiteral);
      return t("kit.amount", { amount, currency });
    },
  };
}

const TRANSLATORS = new Map<Locale, Translator>(LOCALES.map((l) => [l, build(l)]));

/** The translator of a supported locale. */
export function translator(locale: Locale): Translator {
  return TRANSLATORS.get(locale)!;
}
