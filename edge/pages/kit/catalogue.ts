/**
 * A translator over a face's own message catalogues (the Backoffice's,
 * edge/backoffice/messages/<locale>.json), with the kit's catalogue
 * underneath, so the kit's components (error summary, skip link, amounts)
 * speak the same language on every face. Same rules as i18n.ts: ICU
 * MessageFormat through intl-messageformat, a key missing in one language
 * falls back to English, amounts from integers with the currency's decimals.
 */
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGUES, type Locale, type MessageKey, type MessageValues, translator } from "./i18n.ts";

/** A translator that knows a face's keys `K` as well as the kit's. */
export interface FaceTranslator<K extends string, L extends Locale = Locale> {
  readonly locale: L;
  readonly dir: "ltr" | "rtl";
  t(key: K | MessageKey, values?: MessageValues): string;
  amount(minor: bigint, currency: string): string;
}

/**
 * Translators over `catalogues`, one per language the face speaks (its keys
 * `L`, English among them; English's keys are the reference).
 */
export function faceTranslators<K extends string, L extends Locale = Locale>(
  catalogues: Readonly<Record<L | "en", Readonly<Record<string, string>>>>,
): (locale: L) => FaceTranslator<K, L> {
  const build = (locale: L): FaceTranslator<K, L> => {
    const kit = translator(locale);
    const formats = new Map<string, IntlMessageFormat>();
    const t = (key: K | MessageKey, values?: MessageValues): string => {
      let f = formats.get(key);
      if (!f) {
        const source = catalogues[locale][key] ?? catalogues.en[key] ?? CATALOGUES[locale][key] ?? CATALOGUES.en[key];
        if (source === undefined) throw new Error(`no message ${key}`);
        f = new IntlMessageFormat(source, locale);
        formats.set(key, f);
      }
      return String(f.format(values));
    };
    return { locale, dir: kit.dir, t, amount: (minor, currency) => kit.amount(minor, currency) };
  };
  const all = new Map<L, FaceTranslator<K, L>>();
  return (locale) => {
    let tr = all.get(locale);
    if (!tr) {
      tr = build(locale);
      all.set(locale, tr);
    }
    return tr;
  };
}
