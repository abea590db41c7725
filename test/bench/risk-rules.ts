/**
 * BENCH_RISK_RULES=N (0 to 10): the bench merchant m-test gets N risk rules
 * from the merchants file (docs/operations.md), so that the sale's cost with
 * rules is read beside a run without (issue 32: within 5 % with ten). Every
 * rule counts what it must on every sale and none refuses the bench's sales
 * (one card, one customer, from GB): velocity by each key, the three deposit
 * limits and the country check, with limits no run reaches.
 */
const RULES = [
  { name: "Card velocity", kind: "velocity", transaction_type: "sale", key: "card", window_seconds: 3600, max_count: 1_000_000 },
  { name: "Customer velocity", kind: "velocity", transaction_type: "sale", key: "customer", window_seconds: 3600, max_count: 1_000_000 },
  { name: "E-mail velocity", kind: "velocity", transaction_type: "sale", key: "email", window_seconds: 3600, max_count: 1_000_000 },
  { name: "IP velocity", kind: "velocity", transaction_type: "sale", key: "ip", window_seconds: 3600, max_count: 1_000_000 },
  {
    name: "Card amount a day",
    kind: "velocity",
    transaction_type: "sale",
    key: "card",
    window_seconds: 86_400,
    max_amount_minor: 1_000_000_000_000,
    currency: "USD",
  },
  { name: "Day limit", kind: "deposit_limit", period: "day", currency: "USD", max_amount_minor: 1_000_000_000_000 },
  { name: "Week limit", kind: "deposit_limit", period: "week", currency: "USD", max_amount_minor: 1_000_000_000_000 },
  { name: "Month limit", kind: "deposit_limit", period: "month", currency: "USD", max_amount_minor: 1_000_000_000_000 },
  { name: "Card country", kind: "country_mismatch", bin_countries: "411111=GB" },
  { name: "Payout velocity", kind: "velocity", transaction_type: "payout", key: "customer", window_seconds: 86_400, max_count: 1_000_000 },
];

/** The merchants file with `n` of the rules on m-test; the file as given when n is 0. */
export function withRiskRules(file: { merchants: unknown[] }, n: number): { merchants: unknown[] } {
  if (n === 0) return file;
  if (!Number.isInteger(n) || n < 0 || n > RULES.length) throw new Error(`BENCH_RISK_RULES must be a whole number from 0 to ${RULES.length}, got ${n}`);
  return {
    merchants: file.merchants.map((m) => ((m as { merchant_id?: string }).merchant_id === "m-test" ? { ...(m as object), risk_rules: RULES.slice(0, n) } : m)),
  };
}
