/**
 * Routing rules between cashier.admin.v1.RoutingRule and the engine: a request's rules become the merchants file's
 * `routing_rules` entries (snake_case, field for field) for the one parser both use, so that a console change is
 * checked exactly as the file is and a fault is named by the request's path (`rules[1].when.currency[0]`); stored
 * rules go back out as the proto, with the version (etag) a change must name.
 */
import { createHash } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { type RoutingRule as RuleProto, RoutingRuleSchema, SplitWeightSchema } from "../../../gen/cashier/admin/v1/routing_pb.js";
import { MerchantsFileError, parseRoutingRules, type RoutingRule } from "../../payments/index.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { invalidArgument } from "../../rpc/errors.ts";

/** A list condition: absent when empty (an empty repeated field is "any", as a condition left out of the file). */
const list = (values: readonly string[]) => (values.length > 0 ? [...values] : undefined);

/** One proto rule as the file's entry; a split listing an account twice is refused here (the entry is an object). */
function entryOf(r: RuleProto, i: number): Record<string, unknown> {
  const w = r.when;
  const when = {
    transaction_type: list(w?.transactionType ?? []),
    currency: list(w?.currency ?? []),
    country: list(w?.country ?? []),
    card_brand: list(w?.cardBrand ?? []),
    bin: list(w?.bin ?? []),
    amount_min: w?.amountMin === undefined ? undefined : Number(w.amountMin),
    amount_max: w?.amountMax === undefined ? undefined : Number(w.amountMax),
  };
  const seen = new Set<string>();
  for (const [j, s] of r.split.entries()) {
    if (seen.has(s.account)) throw invalidArgument(`rules[${i}].split[${j}].account`, `repeats ${s.account}`);
    seen.add(s.account);
  }
  return {
    name: r.name === "" ? undefined : r.name,
    when: Object.fromEntries(Object.entries(when).filter(([, v]) => v !== undefined)),
    processors: list(r.processors),
    split: r.split.length > 0 ? Object.fromEntries(r.split.map((s) => [s.account, s.weight])) : undefined,
  };
}

/**
 * The request's rules checked by the merchants file's parser, each account one of `accounts`; a fault as
 * INVALID_ARGUMENT on the request's path. The parser names a split's member by account (`split.cko-main`): the
 * request's is its place, and its account when that is not one of the merchant's, else its weight.
 */
export function rulesOfRequest(rules: readonly RuleProto[], accounts: readonly string[]): RoutingRule[] {
  const entries = rules.map(entryOf);
  try {
    return parseRoutingRules(entries, "rules", accounts);
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    const split = /^rules\[(\d+)\]\.split\.(.+)$/.exec(err.field);
    if (split) {
      const i = Number(split[1]);
      const j = rules[i].split.findIndex((s) => s.account === split[2]);
      throw invalidArgument(`rules[${i}].split[${j}].${accounts.includes(split[2]) ? "weight" : "account"}`, err.problem);
    }
    throw invalidArgument(err.field, err.problem);
  }
}

/** A stored rule as the proto. */
export function ruleToProto(r: RoutingRule): RuleProto {
  const w = r.when ?? {};
  return create(RoutingRuleSchema, {
    name: r.name ?? "",
    when: {
      transactionType: w.transactionType ?? [],
      currency: w.currency ?? [],
      country: w.country ?? [],
      cardBrand: w.cardBrand ?? [],
      bin: w.bin ?? [],
      ...(w.amountMin === undefined ? {} : { amountMin: BigInt(w.amountMin) }),
      ...(w.amountMax === undefined ? {} : { amountMax: BigInt(w.amountMax) }),
    },
    processors: r.split ? [] : (r.processors ?? []),
    split: Object.entries(r.split ?? {}).map(([account, weight]) => create(SplitWeightSchema, { account, weight })),
  });
}

/** The rules' version: a digest of their canonical JSON, so that two reads of the same rules give one etag. */
export function rulesEtag(rules: readonly RoutingRule[]): string {
  return createHash("sha256").update(canonicalJson(rules)).digest("hex").slice(0, 20);
}
