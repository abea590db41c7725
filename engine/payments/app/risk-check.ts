/**
 * The Process call's risk check (domain/risk-rules.ts): the merchant's cached
 * rules and, only when one of them counts earlier orders, the one counts query
 * for all of them; the first rule that refuses, or undefined. A merchant with
 * no rules costs a cache read and no query. A refund is never checked. The
 * request's IP country is looked up in the operator's table (in memory) when
 * one is loaded; without it, or for an address it lacks, it is not known.
 */
import type { ProcessInput } from "../../shared/transaction.ts";
import { refusingRule, riskMeasures, type RiskRule, type RiskSubject } from "../domain/risk-rules.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";

/** A refusal: the rule, and the request as the rule saw it (a country rule's decline names the countries it compared). */
export interface RiskRefusal {
  rule: RiskRule;
  subject: RiskSubject;
}

/** The rule that refuses this request, read before its order is made. */
export async function refusingRiskRule(
  deps: ProcessDeps,
  merchantId: string,
  input: ProcessInput,
  cardFingerprint: string,
  now: Date,
): Promise<RiskRefusal | undefined> {
  if (input.type !== "sale" && input.type !== "payout") return undefined;
  const rules = await deps.risk.rules(merchantId);
  if (rules.length === 0) return undefined;
  const subject: RiskSubject = {
    type: input.type,
    amountMinor: input.amountMinor,
    currency: input.currency,
    pin: input.customer.pin,
    email: input.customer.email,
    ip: input.customer.requesterIp,
    country: input.customer.country,
    cardNumber: input.card.number,
    cardFingerprint,
    ipCountry: (input.customer.requesterIp && deps.ipCountries?.countryOf(input.customer.requesterIp)) || "",
  };
  const measures = riskMeasures(rules, subject);
  const counts = measures.some((m) => m !== undefined) ? await deps.risk.counts(merchantId, measures, now) : measures.map(() => undefined);
  const rule = refusingRule(rules, subject, counts);
  return rule ? { rule, subject } : undefined;
}
