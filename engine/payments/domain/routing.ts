/**
 * A merchant's routing rules (CONTRACT 11): which of its processor accounts an attempt's cascade goes through, and
 * in which order. Rules are read in order; the first whose conditions all hold picks the cascade, none holding means
 * the merchant's `processors`. Pure: the facts of the attempt come in, the cascade and the rule that chose it go out,
 * and the one chance in it (a `split`'s first account) is a number the caller passes, so that a test, a retry and
 * an operator asking "why this acquirer?" all get the same answer.
 */
import { createHash } from "node:crypto";
import { CARD_BRANDS, cardBrand } from "../../shared/card.ts";
import { currencyExponent, WHOLE_UNIT_CURRENCIES } from "../../shared/money.ts";
import { ownEntry } from "../../shared/own-entry.ts";
import type { TransactionType } from "../../shared/transaction.ts";
import { onceEach } from "./once-each.ts";

export type CardBrandName = keyof typeof CARD_BRANDS;

/**
 * What must hold of an attempt for a rule to route it; a condition left out holds for any attempt. Lists hold when
 * the attempt's value is one of them; `bin` holds when the card's BIN starts with one of the prefixes.
 */
export interface RoutingConditions {
  transactionType?: TransactionType[];
  /** ISO 4217 codes. */
  currency?: string[];
  /** The customer's country, ISO 3166-1 alpha-2. */
  country?: string[];
  /** card-validator's names (CARD_BRANDS), any case. */
  cardBrand?: string[];
  /** Digit strings of 1 to 8 digits. */
  bin?: string[];
  /**
   * Bounds on the amount, both inclusive, each an integer in the wire unit of the attempt's currency exactly as
   * Process's `amount` carries it (CONTRACT 3: hundredths, whole units for JPY, BHD and the others listed), so that a
   * bound reads like the amounts the merchant sends: 1000 is USD 10.00, JPY 1000 and BHD 1000.000.
   */
  amountMin?: number;
  amountMax?: number;
}

/**
 * One rule: its conditions and the cascade it picks, either `processors` (account names in cascade order) or
 * `split` (positive integer weights over account names: the first attempt's account is drawn by weight, the other
 * accounts follow in the order the rule lists them). A rule that has both is read by its split.
 */
export interface RoutingRule {
  /** Shown in the transaction's detail and the Backoffice; without one, the rule is "rule N" (1-based). */
  name?: string;
  when: RoutingConditions;
  processors?: string[];
  split?: Record<string, number>;
}

/** What a rule reads of an attempt. */
export interface RoutingFacts {
  type: TransactionType;
  currency: string;
  amountMinor: number;
  /** The customer's country (ISO 3166-1 alpha-2), "" when the attempt names none. */
  country: string;
  /** The card's brand as cardBrand gives it (VISA, MC, ..., CARD for none known), "" without a card. */
  cardBrand: string;
  /** The card number's first 6 to 8 digits (binOf), "" without a card. */
  bin: string;
}

/** The rule that routed an attempt: its place in the list (0-based) and its name if it has one. */
export interface RoutedBy {
  index: number;
  name?: string;
}

/** An attempt's cascade and the rule that chose it, or null when no rule held and the merchant's processors apply. */
export interface Routing {
  cascade: string[];
  rule: RoutedBy | null;
}

/**
 * The cascade for an attempt: the first rule whose conditions all hold picks it, or `defaultProcessors` (the
 * merchant's `processors`) when none does. `pick` gives a number in [0, 1) and is called only when the rule is a
 * split. A rule naming no account (which the merchant's settings never hold) is passed over, so the cascade is never
 * empty while the default is not; an account listed twice is tried once.
 */
export function route(rules: readonly RoutingRule[], facts: RoutingFacts, defaultProcessors: readonly string[], pick: () => number): Routing {
  for (const [index, rule] of rules.entries()) {
    if (!holds(rule.when ?? {}, facts)) continue;
    const cascade = rule.split ? splitCascade(rule.split, pick) : onceEach(rule.processors ?? []);
    if (cascade.length === 0) continue;
    return { cascade, rule: rule.name === undefined ? { index } : { index, name: rule.name } };
  }
  return { cascade: onceEach(defaultProcessors), rule: null };
}

/** How the transaction's detail and the Backoffice name a rule: its name, else "rule 3" for the third. */
export function ruleLabel(rule: RoutedBy): string {
  return rule.name ?? `rule ${rule.index + 1}`;
}

/** Whether every condition present holds of the attempt. */
export function holds(when: RoutingConditions, facts: RoutingFacts): boolean {
  const { transactionType, currency, country, cardBrand: brands, bin, amountMin, amountMax } = when;
  if (transactionType && !transactionType.includes(facts.type)) return false;
  if (currency && !currency.some((c) => c.toUpperCase() === facts.currency.toUpperCase())) return false;
  if (country && !country.some((c) => c.toUpperCase() === facts.country.toUpperCase())) return false;
  if (brands && !brands.some((b) => ownEntry(CARD_BRANDS, b.toLowerCase()) === facts.cardBrand.toUpperCase())) return false;
  // A prefix longer than the digits the attempt knows (an 8-digit one against a 15-digit card's 6) does not hold.
  if (bin && !bin.some((prefix) => facts.bin.startsWith(prefix))) return false;
  if (amountMin !== undefined && compareToWire(facts.amountMinor, amountMin, facts.currency) < 0) return false;
  if (amountMax !== undefined && compareToWire(facts.amountMinor, amountMax, facts.currency) > 0) return false;
  return true;
}

/**
 * An amount in minor units against a bound in the wire unit of its currency: -1, 0 or 1, exactly. Both are brought
 * to one scale by integers (minor / 10^exponent against wire / 10^wireExponent, cross-multiplied), never through a
 * float, so a bound holds to the last minor unit in JPY (0 decimals), EUR (2) and KWD or BHD (3).
 */
export function compareToWire(minor: number, wire: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  const wireExponent = WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2;
  const left = BigInt(minor) * 10n ** BigInt(wireExponent);
  const right = BigInt(wire) * 10n ** BigInt(exponent);
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * A split's cascade: the first account drawn by weight (account i when pick() falls in the i-th share of [0, 1),
 * shares in the order listed), then every other account in the order listed. A weight that is not a positive integer
 * counts as 0: that account is never drawn first, but still follows.
 */
export function splitCascade(split: Readonly<Record<string, number>>, pick: () => number): string[] {
  const entries = Object.entries(split).map(([account, w]) => [account, Number.isSafeInteger(w) && w > 0 ? w : 0] as const);
  if (entries.length === 0) return [];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  if (total === 0) return entries.map(([account]) => account);
  const p = pick();
  // Out of [0, 1) (a faulty source) falls to the nearest end rather than past the shares.
  const slot = Number.isFinite(p) && p > 0 ? Math.min(Math.floor(p * total), total - 1) : 0;
  let upTo = 0;
  const first = entries.find(([, w]) => {
    upTo += w;
    return slot < upTo;
  })![0];
  return [first, ...entries.map(([account]) => account).filter((a) => a !== first)];
}

/**
 * The split's draw for an order, from its key (merchant and order id) rather than from chance: the same order routes
 * the same way whenever it is routed again (a repeated request, a run resumed after a restart), an operator can
 * tell why an order went where it did, and the shares still come out by weight over many orders (a SHA-256 of the
 * key, whatever order ids a platform picks). Not the trace_id: the first attempt's account is chosen before its
 * transaction, and so its trace_id, exists.
 */
export function orderPick(merchantId: string, orderId: string): () => number {
  const digest = createHash("sha256")
    .update(JSON.stringify([merchantId, orderId]))
    .digest();
  const value = digest.readUIntBE(0, 6) / 2 ** 48;
  return () => value;
}

/**
 * The BIN a rule's prefixes are matched against: the first 8 digits of a number of 16 digits or more, else the
 * first 6 (ISO/IEC 7812-1:2017 made issuer numbers 8 digits long, for numbers of 16 digits and up).
 */
export function binOf(cardNumber: string): string {
  return cardNumber.slice(0, cardNumber.length >= 16 ? 8 : 6);
}

/** An attempt's card facts from its number (digits only): its brand and BIN, both "" without a card. */
export function cardFacts(cardNumber: string): Pick<RoutingFacts, "cardBrand" | "bin"> {
  if (cardNumber === "") return { cardBrand: "", bin: "" };
  return { cardBrand: cardBrand(cardNumber), bin: binOf(cardNumber) };
}
