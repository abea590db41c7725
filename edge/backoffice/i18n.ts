/**
 * The console's texts: edge/backoffice/messages/<locale>.json over the kit's
 * catalogue, in three of the kit's languages (the hosted pages speak more; the
 * console is for staff). The language is the browser's (Accept-Language)
 * among these three, else English.
 */
import type { Context } from "koa";
import { faceTranslators, type FaceTranslator } from "../pages/kit/catalogue.ts";
import type { Locale } from "../pages/kit/i18n.ts";
import { chooseLocale } from "../pages/kit/locale.ts";
import ar from "./messages/ar.json" with { type: "json" };
import de from "./messages/de.json" with { type: "json" };
import en from "./messages/en.json" with { type: "json" };

/** The console's languages: a French browser gets English, not a page half French (the kit's) and half English. */
export const CONSOLE_LOCALES = ["en", "de", "ar"] as const satisfies readonly Locale[];
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];
export type ConsoleKey = keyof typeof en;
export type ConsoleTranslator = FaceTranslator<ConsoleKey, ConsoleLocale>;

export const CONSOLE_CATALOGUES: Readonly<Record<ConsoleLocale, Readonly<Record<string, string>>>> = { en, de, ar };

const translators = faceTranslators<ConsoleKey, ConsoleLocale>(CONSOLE_CATALOGUES);

/** The console's translator of a locale. */
export function consoleTranslator(locale: ConsoleLocale): ConsoleTranslator {
  return translators(locale);
}

/** The request's language: the browser's, else English. */
export function translatorFor(ctx: Context): ConsoleTranslator {
  return translators(chooseLocale({ acceptLanguage: ctx.get("accept-language") }, CONSOLE_LOCALES));
}
