/**
 * The page's language in CONTRACT 9's order: the session's locale, then the
 * browser's Accept-Language, then the frontend's default, then English; each
 * matched to the languages the Cashier speaks.
 */
import t from "tap";
import { browserLanguages, chooseLocale } from "../../../../../edge/pages/kit/locale.ts";

t.test("the choice order", async (t) => {
  const rows: [Parameters<typeof chooseLocale>[0], string, string][] = [
    [{ sessionLocale: "ar", acceptLanguage: "de", defaultLocale: "en" }, "ar", "the session first"],
    [{ sessionLocale: "de-AT", acceptLanguage: "ar" }, "de", "a regional tag is served its language"],
    [{ sessionLocale: "fr", acceptLanguage: "ar;q=0.5, de;q=0.9", defaultLocale: "en" }, "de", "a session language not spoken: the browser's best by q"],
    [{ acceptLanguage: "fr-CH, fr;q=0.9, ar;q=0.8" }, "ar", "the browser's first spoken one"],
    [{ acceptLanguage: "fr, ja", defaultLocale: "de" }, "de", "nothing spoken in the browser's list: the frontend's default"],
    [{ acceptLanguage: "*", defaultLocale: "ar" }, "ar", "a wildcard names no language"],
    [{ sessionLocale: "x-не-тег", acceptLanguage: ";;;q=x,,", defaultLocale: "garbage tag" }, "en", "malformed everywhere: English"],
    [{ defaultLocale: "ar-EG" }, "ar", "the frontend's default, matched"],
    [{}, "en", "nothing at all: English"],
  ];
  for (const [choice, locale, why] of rows) t.equal(chooseLocale(choice), locale, why);
});

t.test("Accept-Language is read by preference", async (t) => {
  t.same(browserLanguages("de;q=0.5, ar, en;q=0.7"), ["ar", "en", "de"]);
  t.same(browserLanguages(undefined), []);
  t.same(browserLanguages(""), []);
});
