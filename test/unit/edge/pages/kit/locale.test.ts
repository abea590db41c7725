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
    [{ sessionLocale: "nl", acceptLanguage: "ar;q=0.5, de;q=0.9", defaultLocale: "en" }, "de", "a session language not spoken: the browser's best by q"],
    [{ acceptLanguage: "nl-BE, nl;q=0.9, ar;q=0.8" }, "ar", "the browser's first spoken one"],
    [{ acceptLanguage: "nl, ja", defaultLocale: "de" }, "de", "nothing spoken in the browser's list: the frontend's default"],
    [{ acceptLanguage: "*", defaultLocale: "ar" }, "ar", "a wildcard names no language"],
    [{ sessionLocale: "x-не-тег", acceptLanguage: ";;;q=x,,", defaultLocale: "garbage tag" }, "en", "malformed everywhere: English"],
    [{ defaultLocale: "ar-EG" }, "ar", "the frontend's default, matched"],
    [{}, "en", "nothing at all: English"],
  ];
  for (const [choice, locale, why] of rows) t.equal(chooseLocale(choice), locale, why);
});

t.test("the five languages added for players: a regional tag is served its language, Portuguese is Brazil's", async (t) => {
  const rows: [Parameters<typeof chooseLocale>[0], string, string][] = [
    [{ sessionLocale: "es-MX" }, "es", "Mexican Spanish: Spanish"],
    [{ sessionLocale: "fr-CA", acceptLanguage: "de" }, "fr", "Canadian French: French, the session first"],
    [{ sessionLocale: "pt-BR" }, "pt-BR", "Brazilian Portuguese"],
    [{ sessionLocale: "pt" }, "pt-BR", "pt alone: Brazilian Portuguese"],
    [{ sessionLocale: "pt-PT" }, "pt-BR", "European Portuguese: Brazilian, closer than English"],
    [{ acceptLanguage: "pt-PT, en;q=0.5" }, "pt-BR", "a browser's European Portuguese before English: Brazilian"],
    [{ sessionLocale: "it-CH" }, "it", "Swiss Italian: Italian"],
    [{ acceptLanguage: "tr-TR,tr;q=0.9,en;q=0.8" }, "tr", "a Turkish browser"],
    [{ acceptLanguage: "nl", defaultLocale: "es" }, "es", "the frontend's default in a new language"],
  ];
  for (const [choice, locale, why] of rows) t.equal(chooseLocale(choice), locale, why);
});

t.test("a face that speaks fewer languages chooses among its own: the Backoffice's French browser reads English", async (t) => {
  const console3 = ["en", "de", "ar"] as const;
  t.equal(chooseLocale({ acceptLanguage: "fr, de;q=0.5" }, console3), "de");
  t.equal(chooseLocale({ acceptLanguage: "fr" }, console3), "en");
  t.equal(chooseLocale({ acceptLanguage: "fr" }), "fr");
});

t.test("Accept-Language is read by preference", async (t) => {
  t.same(browserLanguages("de;q=0.5, ar, en;q=0.7"), ["ar", "en", "de"]);
  t.same(browserLanguages(undefined), []);
  t.same(browserLanguages(""), []);
});
