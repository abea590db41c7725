/**
 * The console's texts: edge/backoffice/messages/<locale>.json over the kit's
 * catalogue, in the kit's three languages. Operators are staff, so the
 * language is the browser's (Accept-Language), else English.
 */
import type { Context } from "koa";
import { faceTranslators, type FaceTranslator } from "../pages/kit/catalogue.ts";
import type { Locale } from "../pages/kit/i18n.ts";
import { chooseLocale } from "../pages/kit/locale.ts";
import ar from "./messages/ar.json" with { type: "json" };
import de from "./messages/de.json" with { type: "json" };
import en from "./messages/en.json" with { type: "json" };

export type ConsoleKey = keyof typeof en;
export type ConsoleTranslator = FaceTranslator<ConsoleKey>;

export const CONSOLE_CATALOGUES: Readonly<Record<Locale, Readonly<Record<string, string>>>> = { en, de, ar };

const translators = faceTranslators<ConsoleKey>(CONSOLE_CATALOGUES);

/** The console's translator of a locale. */
export function consoleTranslator(locale: Locale): ConsoleTranslator {
  return translators(locale);
}

/** The request's language: the browser's, else English. */
export function translatorFor(ctx: Context): ConsoleTranslator {
  return translators(chooseLocale({ acceptLanguage: ctx.get("accept-language") }));
}
