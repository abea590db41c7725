/**
 * Routing wired into an order (CONTRACT 11): the facts a merchant's rules read, taken from the Process request
 * when the order's first attempt is made, and the cascade every later attempt of the order follows. The rules
 * themselves are domain/routing.ts's; this file only says where their inputs come from and where the answer is kept.
 */
import type { Attempt, ProcessInput, TransactionType } from "../../shared/transaction.ts";
import { cardFacts, orderPick, route, type Routing, type RoutingFacts } from "../domain/routing.ts";
import type { Merchant } from "../ports/merchants.ts";

/** What a rule reads of an order's first attempt: its type, amount, currency, the customer's country and the card. */
export function routingFacts(input: Pick<ProcessInput, "amountMinor" | "currency" | "card" | "customer">, type: TransactionType): RoutingFacts {
  return {
    type,
    currency: input.currency,
    amountMinor: input.amountMinor,
    country: input.customer.country,
    ...cardFacts(input.card.number),
  };
}

/**
 * The cascade of a new sale or payout: the first of the merchant's rules that holds picks it, else its processors.
 * A split draws from the order's key (orderPick), so a repeated request routes where the first one did.
 */
export function routeOrder(merchant: Merchant, input: ProcessInput, type: "sale" | "payout"): Routing {
  return route(merchant.routingRules ?? [], routingFacts(input, type), merchant.processors, orderPick(merchant.id, input.orderId));
}

/**
 * The cascade an attempt belongs to: the one a rule picked for its order when the order was made (kept with it, so
 * that a rule changed since does not move a cascade half-way), else the merchant's processors, as before rules.
 */
export function cascadeOf(a: Pick<Attempt, "cascade">, merchant: Pick<Merchant, "processors">): readonly string[] {
  return a.cascade ?? merchant.processors;
}
