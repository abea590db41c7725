/**
 * "Where would this sale go?" for an operator (the Backoffice's routing preview): a hypothetical sale or payout,
 * described as an operator knows it (its amount in the wire unit, a BIN or a brand rather than a card), checked,
 * turned into the facts routing reads, and run through the same route() the engine runs for every order. A split's
 * first account is drawn per order; the preview gives its weights and the accounts in the rule's order instead.
 */
import { CARD_BRANDS, cardBrand } from "../../shared/card.ts";
import { currencyExponent, isCurrency, WHOLE_UNIT_CURRENCIES } from "../../shared/money.ts";
import { ownEntry } from "../../shared/own-entry.ts";
import { type Routing, type RoutingFacts, type RoutingRule, route } from "../domain/routing.ts";
import { ROUTING_CARD_BRANDS } from "./routing-spec.ts";

/** The hypothetical attempt as an operator types it. */
export interface PreviewQuestion {
  type: "sale" | "payout";
  currency: string;
  /** In the wire unit of the currency, as Process's `amount` (1000 is USD 10.00, JPY 1000). */
  amount: number;
  /** ISO 3166-1 alpha-2, "" for none. */
  country: string;
  /** The card's first 6 to 8 digits, "" for none. */
  bin: string;
  /** A brand by card-validator's name (visa), "" for the BIN's own or none. */
  brand: string;
}

/** The preview: the routing as route() gives it, the rule that held, and the brand the facts carried. */
export interface PreviewAnswer {
  routing: Routing;
  /** The rule that held (its split read from here), undefined when the merchant's processors apply. */
  rule?: RoutingRule;
  cardBrand: string;
}

export type PreviewResult = { ok: true; answer: PreviewAnswer } | { ok: false; field: string; problem: string };

/** The question's faults, named by field, else the facts route() reads. */
function factsOf(q: PreviewQuestion): { ok: true; facts: RoutingFacts } | { ok: false; field: string; problem: string } {
  if (!isCurrency(q.currency)) return { ok: false, field: "currency", problem: "must be an ISO 4217 code (upper case)" };
  if (!Number.isSafeInteger(q.amount) || q.amount <= 0)
    return { ok: false, field: "amount", problem: "must be a positive integer in the wire unit (as Process's amount: 1000 is USD 10.00, JPY 1000)" };
  if (q.country !== "" && !/^[A-Z]{2}$/.test(q.country)) return { ok: false, field: "country", problem: "must be an ISO 3166-1 alpha-2 code (upper case)" };
  if (q.bin !== "" && !/^\d{6,8}$/.test(q.bin)) return { ok: false, field: "card_bin", problem: "must be the card's first 6 to 8 digits" };
  if (q.brand !== "" && !ROUTING_CARD_BRANDS.includes(q.brand.toLowerCase()))
    return { ok: false, field: "card_brand", problem: `must be one of ${ROUTING_CARD_BRANDS.join(", ")}` };
  // The wire unit -> minor units, exactly: BHD is sent in whole dinars (x1000), USD in cents (x1), never a float.
  const shift = (currencyExponent(q.currency) ?? 2) - (WHOLE_UNIT_CURRENCIES.has(q.currency) ? 0 : 2);
  const wire = BigInt(q.amount);
  const step = 10n ** BigInt(Math.abs(shift));
  if (shift < 0 && wire % step !== 0n)
    return { ok: false, field: "amount", problem: `must be a multiple of ${step}: ${q.currency} has ${currencyExponent(q.currency)} decimals` };
  const minor = shift >= 0 ? wire * step : wire / step;
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, field: "amount", problem: "is too large" };
  const brand = q.brand !== "" ? (ownEntry(CARD_BRANDS, q.brand.toLowerCase()) ?? "") : q.bin !== "" ? cardBrand(q.bin) : "";
  return { ok: true, facts: { type: q.type, currency: q.currency, amountMinor: Number(minor), country: q.country, cardBrand: brand, bin: q.bin } };
}

/** Where the question's attempt would go under `rules`, else the merchant's `processors`. */
export function previewRouting(merchant: { processors: readonly string[]; routingRules?: readonly RoutingRule[] }, q: PreviewQuestion): PreviewResult {
  const checked = factsOf(q);
  if (!checked.ok) return checked;
  const rules = merchant.routingRules ?? [];
  // A split's first account depends on the order; drawn at 0, the split lists its accounts in the rule's order.
  const routing = route(rules, checked.facts, merchant.processors, () => 0);
  return { ok: true, answer: { routing, ...(routing.rule ? { rule: rules[routing.rule.index] } : {}), cardBrand: checked.facts.cardBrand } };
}
