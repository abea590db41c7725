/**
 * A risk rule's dry run (the console's "this rule would have refused N
 * transactions"): the rule tried on each of the merchant's stored sales or
 * payouts of the last 7 days, in the order they were made, each with the
 * earlier orders its measure would have counted then (the same measure the
 * Process call asks the store for, computed here over the loaded orders).
 * The orders are taken as stored: one the rule would have refused still
 * counts for the later ones (a velocity rule counts every order; a deposit
 * limit only those that hold money now). A card's BIN is the 6 digits its
 * masked number keeps, so an 8-digit BIN of a country rule is not matched
 * here (documented). Pure.
 */
import { measureOf, type RiskCount, type RiskRule, ruleRefuses, type RiskSubject } from "./risk-rules.ts";

/** A stored order as the dry run reads it. */
export interface DryRunOrder extends RiskSubject {
  createdAt: Date;
  /** An attempt approved, pending or pending_async: it holds or may hold the customer's money. */
  live: boolean;
}

/** How many of the orders made at or after `since` the rule would have refused, and how many it was tried on. */
export function dryRun(rule: RiskRule, orders: readonly DryRunOrder[], since: Date): { refused: number; examined: number } {
  const sorted = [...orders].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  // The orders already seen, by the measure's (type, key, value): each key's list in time order.
  const seen = new Map<string, DryRunOrder[]>();
  let refused = 0;
  let examined = 0;
  for (const o of sorted) {
    const m = measureOf(rule, o);
    const group = m ? `${m.type}\u0000${m.key}\u0000${m.value}` : undefined;
    if (o.createdAt >= since && o.type !== "refund") {
      examined++;
      let earlier: RiskCount | undefined;
      if (m && group) {
        const from = o.createdAt.getTime() - m.sinceSeconds * 1000;
        earlier = { count: 0, amountMinor: 0 };
        for (const e of seen.get(group) ?? []) {
          if (e.createdAt.getTime() < from || (m.live && !e.live)) continue;
          earlier.count++;
          if (m.currency !== null && e.currency === m.currency) earlier.amountMinor += e.amountMinor;
        }
      }
      if (ruleRefuses(rule, o, earlier)) refused++;
    }
    if (group) {
      const list = seen.get(group);
      if (list) list.push(o);
      else seen.set(group, [o]);
    }
  }
  return { refused, examined };
}
