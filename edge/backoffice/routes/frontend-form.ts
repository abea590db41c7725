/**
 * The frontend amounts form, decoded: currencies as codes, each amount typed as money of its currency ("10.00",
 * "1000" for JPY) turned into minor units exactly by parseAmountLine (string arithmetic, never a float), and the
 * engine's refusal of it turned back into the inputs it names. Whether an amount fits the wire unit a frontend keeps
 * (BHD 5.500 does not) and every other rule is the engine's to say.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FrontendLimitsMinorSchema } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import type { ConsoleRefusal } from "../refusal.ts";
import { type FrontendAmountsValues, LIMIT_INPUTS, type LimitName, limitId, limitInput } from "../views/frontend-settings.ts";
import { parseAmountLine } from "./merchants.ts";

/** What SetFrontendAmounts takes of the form. */
interface Amounts {
  baseCurrency: string;
  currencies: string[];
  depositPresetsMinor: bigint[];
  limits: MessageInitShape<typeof FrontendLimitsMinorSchema>[];
}

const codes = (text: string) =>
  text
    .split(",")
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);

/** The form's values as typed, for every currency the form offers limits for. */
export function typedValues(form: URLSearchParams, currencies: readonly string[]): FrontendAmountsValues {
  const limits: FrontendAmountsValues["limits"] = {};
  for (const c of currencies) limits[c] = Object.fromEntries(LIMIT_INPUTS.map(([name]) => [name, (form.get(limitInput(c, name)) ?? "").trim()]));
  return {
    baseCurrency: (form.get("base_currency") ?? "").trim().toUpperCase(),
    currencies: (form.get("currencies") ?? "").trim(),
    presets: (form.get("deposit_presets") ?? "").trim(),
    limits,
  };
}

/** One amount of `currency` in minor units, or undefined when it is not one ("10.00", "10,5" and "1000" are). */
const minorOf = (text: string, currency: string) => parseAmountLine(`${currency} ${text}`)?.amountMinor;

/**
 * The request's amounts, or the inputs that hold no amount. A blank bound is none; a row for a currency no longer
 * listed is sent as typed, so that the engine names it rather than the form dropping it unseen.
 */
export function amountsOf(v: FrontendAmountsValues, badAmount: (currency: string) => string): { amounts: Amounts } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const presets: bigint[] = [];
  for (const p of v.presets
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    const minor = minorOf(p, v.baseCurrency);
    if (minor === undefined) {
      // An unknown base currency is the engine's to name; its presets cannot be read meanwhile.
      if (parseAmountLine(`${v.baseCurrency} 1`)) errors.push({ field: "fe-presets", message: badAmount(v.baseCurrency) });
      break;
    }
    presets.push(minor);
  }
  const limits: Amounts["limits"] = [];
  for (const [currency, typed] of Object.entries(v.limits)) {
    const bounds: Partial<Record<LimitName, bigint>> = {};
    let any = false;
    for (const [name] of LIMIT_INPUTS) {
      const text = typed[name] ?? "";
      if (text === "") continue;
      const minor = minorOf(text, currency);
      if (minor === undefined) errors.push({ field: limitId(currency, name), message: badAmount(currency) });
      else {
        bounds[name] = minor;
        any = true;
      }
    }
    if (any)
      limits.push({
        currency,
        depositMinMinor: bounds.deposit_min,
        depositMaxMinor: bounds.deposit_max,
        withdrawalMinMinor: bounds.withdrawal_min,
        withdrawalMaxMinor: bounds.withdrawal_max,
      });
  }
  if (errors.length) return { errors };
  return { amounts: { baseCurrency: v.baseCurrency, currencies: codes(v.currencies), depositPresetsMinor: presets, limits } };
}

/** The input an engine field names (base_currency, limits[1].deposit_max_minor, ...), given the limits sent. */
export function inputOfField(field: string, sent: Amounts): string | undefined {
  if (field === "base_currency") return "fe-base";
  if (field === "currencies" || /^currencies\[\d+\]$/.test(field)) return "fe-currencies";
  if (/^deposit_presets_minor(\[\d+\])?$/.test(field)) return "fe-presets";
  const limit = /^limits\[(\d+)\]\.(\w+)$/.exec(field);
  const currency = limit ? sent.limits[Number(limit[1])]?.currency : undefined;
  if (!limit || !currency) return undefined;
  const bound = LIMIT_INPUTS.find(([name]) => `${name}_minor` === limit[2])?.[0];
  return limitId(currency, bound ?? "deposit_min");
}

/** A refusal for the form's fields as errors beside its inputs. */
export function amountErrors(r: ConsoleRefusal, sent: Amounts): FieldError[] {
  if (r.kind !== "invalid") return [];
  return r.violations.flatMap((v) => {
    const id = inputOfField(v.field, sent);
    return id ? [{ field: id, message: v.description }] : [];
  });
}
