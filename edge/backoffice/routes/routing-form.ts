/**
 * A routing rule's form, decoded into the RoutingRule the engine checks: lists split at commas or spaces, codes in
 * upper case, the checkboxes as lists, a split as "account weight" lines. What is not a whole number (an amount, a
 * weight) goes as 0, which the engine refuses naming the field, so that every refusal, and its audit row, is the
 * engine's. And back: the engine's field paths (rules[2].when.currency[0]) as the inputs of the rule's form.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { RoutingRuleSchema } from "../../../gen/cashier/admin/v1/routing_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import type { ConsoleRefusal } from "../refusal.ts";
import type { RuleFormValues } from "../views/routing-rules.ts";

export type RuleInit = MessageInitShape<typeof RoutingRuleSchema>;

const listOf = (s: string) =>
  s
    .split(/[\s,;]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A whole number as typed, else 0 (refused by the engine by name). */
const whole = (s: string) => (/^\d{1,15}$/.test(s) ? BigInt(s) : 0n);

/** The rule form's values as typed. */
export function ruleFormValues(form: URLSearchParams): RuleFormValues {
  const get = (k: string) => (form.get(k) ?? "").trim();
  return {
    name: get("name"),
    types: form.getAll("transaction_type"),
    currency: get("currency"),
    country: get("country"),
    brands: form.getAll("card_brand"),
    bin: get("bin"),
    amountMin: get("amount_min"),
    amountMax: get("amount_max"),
    processors: get("processors"),
    split: form.get("split") ?? "",
  };
}

/** The values as the engine's rule. */
export function ruleOf(v: RuleFormValues): RuleInit {
  return {
    name: v.name,
    when: {
      transactionType: [...v.types],
      currency: listOf(v.currency.toUpperCase()),
      country: listOf(v.country.toUpperCase()),
      cardBrand: [...v.brands],
      bin: listOf(v.bin),
      ...(v.amountMin === "" ? {} : { amountMin: whole(v.amountMin) }),
      ...(v.amountMax === "" ? {} : { amountMax: whole(v.amountMax) }),
    },
    processors: listOf(v.processors),
    split: v.split
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [account = "", weight = ""] = line.split(/[\s:=,]+/);
        return { account, weight: /^\d{1,7}$/.test(weight) ? Number(weight) : 0 };
      }),
  };
}

/** `rules[i].<rest>`'s place (i) and the input of the rule's form it names. */
export function ruleField(field: string): { index: number; input: string } | undefined {
  const m = /^rules\[(\d+)\]\.?([a-z_]*)\.?([a-z_]*)/.exec(field);
  if (!m) return undefined;
  const [, i, first, second] = m;
  const input = first === "when" ? second : first === "" ? "processors" : first;
  return { index: Number(i), input };
}

/** The refusal's faults of the rule at `index` beside the inputs of its form, whose ids start with `prefix`. */
export function ruleErrors(r: ConsoleRefusal, index: number, prefix: string): FieldError[] {
  if (r.kind !== "invalid") return [];
  return r.violations.flatMap((v) => {
    const at = ruleField(v.field);
    return at && at.index === index ? [{ field: `${prefix}-${at.input}`, message: v.description }] : [];
  });
}
