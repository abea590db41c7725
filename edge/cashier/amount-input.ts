/**
 * The amount a customer types, read by the page's language: German, Spanish,
 * Italian, Turkish and Brazilian Portuguese write `1.234,5`, English
 * `1,234.5`, French `1 234,5`. Digits (Arabic-Indic ones too) with at most one
 * decimal separator, thousands separators only where they belong (groups of
 * three), never more decimals than the currency has, no sign, no exponent.
 * When both a point and a comma stand, the last is the decimal separator in
 * every language. A lone separator before exactly three digits is a thousands
 * separator when the language groups with it; read the other way it would be
 * a decimal separator with three decimals, so when the currency has three (or
 * the language reads it as a decimal separator and the currency has fewer),
 * the amount can be read two ways and is refused as ambiguous, never guessed.
 * Minor units come out as a bigint; the value never goes through a float.
 */
import { currencyExponent } from "../../engine/shared/money.ts";
import { majorString } from "../pages/kit/i18n.ts";

/** Why an amount was not read: its shape (or too many decimals), or two readings that differ. */
export type AmountInput = { ok: true; minor: bigint } | { ok: false; reason: "shape" | "ambiguous" };

/** A language's decimal and grouping separators, as Intl writes its numbers. */
export function separatorsOf(locale: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale, { numberingSystem: "latn" }).formatToParts(12345.6);
  return { decimal: parts.find((p) => p.type === "decimal")?.value ?? ".", group: parts.find((p) => p.type === "group")?.value ?? "," };
}

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;
const SPACES = /[\s\u00A0\u202F]+/g;

function normalised(text: string, decimal: string): string {
  return text
    .trim()
    .replace(ARABIC_DIGITS, (d) => String((d.codePointAt(0)! - 0x0660) % 0x90))
    .replace(/\u066B/g, decimal === "," ? "," : ".")
    .replace(/\u066C/g, " ")
    .replace(SPACES, " ");
}

/** Integer digits grouped in threes by `seps` (the first group of one to three digits), or undefined. */
function ungrouped(int: string, seps: string): string | undefined {
  if (/^[0-9]+$/.test(int)) return int;
  const groups = int.split(new RegExp(`[${seps.replace(/[.\]\\-]/g, "\\$&")}]`));
  if (!/^[0-9]{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^[0-9]{3}$/.test(g))) return undefined;
  return groups.join("");
}

export function parseAmountInput(text: string, currency: string, locale = "en"): AmountInput {
  const exponent = currencyExponent(currency) ?? 2;
  const { decimal: localeDecimal, group: localeGroup } = separatorsOf(locale);
  const s = normalised(text, localeDecimal);
  if (!/^[0-9][0-9 .,]*$/.test(s) || /[ ][.,]|[.,][ ]|[.,]{2}/.test(s)) return { ok: false, reason: "shape" };
  const points = s.split(".").length - 1;
  const commas = s.split(",").length - 1;
  let decimal: string | undefined;
  if (points > 0 && commas > 0) decimal = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
  else if (points + commas === 1) {
    const sep = points === 1 ? "." : ",";
    const [int, fraction] = s.split(sep);
    const couldGroup = fraction.length === 3 && /^[0-9]{1,3}$/.test(int.split(" ").at(-1)!) && ungrouped(int, " ") !== undefined;
    if (!couldGroup) decimal = sep;
    else if (sep === localeDecimal || (sep !== localeGroup.trim() && sep !== localeGroup)) {
      // The language's decimal separator (or a foreign one) before three digits: a decimal only if the currency has three.
      if (exponent >= 3 && sep === localeDecimal) decimal = sep;
      else return { ok: false, reason: "ambiguous" };
    } else if (exponent >= 3) return { ok: false, reason: "ambiguous" };
  }
  if (decimal !== undefined && s.split(decimal).length !== 2) return { ok: false, reason: "shape" };
  const [intPart, fraction = ""] = decimal === undefined ? [s] : s.split(decimal);
  const groupSeps = ` ${decimal === "." ? "," : decimal === "," ? "." : ".,"}`;
  const digits = ungrouped(intPart, groupSeps);
  if (digits === undefined || digits.length > 12 || !/^[0-9]*$/.test(fraction) || fraction.length > exponent) return { ok: false, reason: "shape" };
  const minor = BigInt(digits) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  return minor > 0n ? { ok: true, minor } : { ok: false, reason: "shape" };
}

/** Minor units as the amount field's value in the page's language: its decimal separator, no grouping ("25.00", "25,00", "1000"). */
export function amountInputValue(minor: bigint, currency: string, locale = "en"): string {
  const plain = majorString(minor, currencyExponent(currency) ?? 2);
  return plain.replace(".", separatorsOf(locale).decimal);
}
