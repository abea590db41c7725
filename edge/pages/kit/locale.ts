/**
 * Which language a page speaks, in CONTRACT 9's order: the session's
 * `locale`, then the browser's Accept-Language, then the frontend's
 * `default_locale`, then English. Each is matched against the languages the
 * Cashier has catalogues for by CLDR's language matching (de-AT is served
 * German; pt and pt-PT Brazilian Portuguese; nl, which it does not speak,
 * passes to the next choice).
 */
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { LOCALES, type Locale } from "./i18n.ts";

const NONE = "und";

/** The supported locale that best serves the tags asked for, or undefined. */
function best<L extends string>(requested: readonly string[], supported: readonly L[]): L | undefined {
  const valid = requested.filter((tag) => {
    try {
      return tag !== "*" && Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  });
  if (valid.length === 0) return undefined;
  const found = match(valid, supported as readonly string[] as string[], NONE);
  return found === NONE ? undefined : (found as L);
}

/** The tags of an Accept-Language header, by preference (q), malformed entries ignored. */
export function browserLanguages(acceptLanguage: string | undefined): string[] {
  if (!acceptLanguage) return [];
  return new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages();
}

export interface LocaleChoice {
  /** The session's `locale` (POST /api/session), when the page belongs to one. */
  sessionLocale?: string;
  /** The request's Accept-Language header. */
  acceptLanguage?: string;
  /** The frontend's `default_locale`. */
  defaultLocale?: string;
}

/**
 * The page's language among `supported` (the hosted pages' languages unless a
 * face speaks fewer: the Backoffice's three), English when none fits.
 */
export function chooseLocale<L extends Locale = Locale>(choice: LocaleChoice, supported: readonly L[] = LOCALES as readonly Locale[] as readonly L[]): L {
  return (
    (choice.sessionLocale ? best([choice.sessionLocale], supported) : undefined) ??
    best(browserLanguages(choice.acceptLanguage), supported) ??
    (choice.defaultLocale ? best([choice.defaultLocale], supported) : undefined) ??
    ("en" as L)
  );
}
