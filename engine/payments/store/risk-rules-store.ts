/**
 * Risk rules on Postgres (ports/risk.ts): a merchant's rules from risk_rule
 * (030), kept in a MerchantCache as merchants are (a change made through
 * another engine takes effect here within the TTL; this engine's own console
 * saves invalidate at once), and the counts query: one statement over the
 * merchant's orders of the longest window, with one filtered count and sum per
 * measure, so ten rules cost one query, not ten. A stored rule that no longer
 * passes its check (a hand-edited row) is skipped and reported, never applied
 * half-read.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { type RawBuilder, sql } from "kysely";
import { parseRiskRule, type RiskRuleFields } from "../domain/risk-rule-input.ts";
import type { RiskCount, RiskMeasure, RiskRule, VelocityKey } from "../domain/risk-rules.ts";
import type { RiskRuleSource } from "../ports/risk.ts";
import { typedDb } from "../../store/typed-db.ts";
import { MerchantCache } from "./merchant-cache.ts";

/** The order's column or expression each velocity key compares (each has an index with created_at: 011, 030). */
const KEY_SQL: Readonly<Record<VelocityKey, RawBuilder<string>>> = {
  customer: sql<string>`o.pin`,
  card: sql<string>`o.card_fingerprint`,
  email: sql<string>`lower(o.customer ->> 'email')`,
  ip: sql<string>`(o.customer ->> 'requester_ip')`,
};

/** The statuses of an order's attempt that hold, or may still hold, the customer's money (a deposit limit's sum). */
const LIVE = sql`exists (select 1 from transaction t where t.order_ref = o.id and t.status in ('approved', 'pending', 'pending_async'))`;

export class PgRiskRules implements RiskRuleSource {
  readonly #orm: MikroORM;
  readonly #cache: MerchantCache<readonly RiskRule[]>;
  readonly #warn: (fields: Record<string, unknown>, message: string) => void;

  constructor(orm: MikroORM, ttlMs = 5000, warn: (fields: Record<string, unknown>, message: string) => void = () => {}) {
    this.#orm = orm;
    this.#warn = warn;
    this.#cache = new MerchantCache((id) => this.#load(id), { ttlMs, unknownTtlMs: ttlMs });
  }

  async rules(merchantId: string): Promise<readonly RiskRule[]> {
    return (await this.#cache.get(merchantId)) ?? [];
  }

  /** Forgets a merchant's rules after this engine changed them. */
  invalidate(merchantId: string): void {
    this.#cache.invalidate(merchantId);
  }

  async #load(merchantId: string): Promise<readonly RiskRule[]> {
    const rows = await typedDb(this.#orm.em.fork())
      .selectFrom("risk_rule")
      .select(["id", "kind", "name", "params"])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute();
    const rules: RiskRule[] = [];
    for (const r of rows) {
      const parsed = parseRiskRule(r.id, storedFields(r.kind, r.name, r.params));
      if (parsed.ok) rules.push(parsed.rule);
      else this.#warn({ merchantId, riskRule: r.id, violations: parsed.violations }, "a stored risk rule fails its check and is not applied");
    }
    return rules;
  }

  async counts(merchantId: string, measures: readonly (RiskMeasure | undefined)[], now: Date): Promise<(RiskCount | undefined)[]> {
    const used = measures.flatMap((m, i) => (m ? [{ m, i }] : []));
    if (used.length === 0) return measures.map(() => undefined);
    const since = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    const longest = Math.max(...used.map(({ m }) => m.sinceSeconds));
    const columns = used.map(({ m }, j) => {
      const where = sql`o.type = ${m.type} and o.created_at >= ${since(m.sinceSeconds)} and ${KEY_SQL[m.key]} = ${m.value}${m.live ? sql` and ${LIVE}` : sql``}`;
      const amount = m.currency === null ? sql`0` : sql`coalesce(sum(o.amount_minor) filter (where ${where} and o.currency = ${m.currency}), 0)`;
      return sql`count(*) filter (where ${where}) as ${sql.ref(`c${j}`)}, ${amount} as ${sql.ref(`a${j}`)}`;
    });
    const keys = [...new Set(used.map(({ m }) => `${m.key}\u0000${m.value}`))].map((kv) => {
      const [key, value] = kv.split("\u0000") as [VelocityKey, string];
      return sql`${KEY_SQL[key]} = ${value}`;
    });
    const result = await sql<Record<string, string | number>>`select ${sql.join(columns)} from payment_order o
where o.merchant_id = ${merchantId} and o.created_at >= ${since(longest)} and (${sql.join(keys, sql` or `)})`.execute(typedDb(this.#orm.em.fork()));
    const row = result.rows[0] ?? {};
    const out: (RiskCount | undefined)[] = measures.map(() => undefined);
    used.forEach(({ i }, j) => {
      out[i] = { count: Number(row[`c${j}`] ?? 0), amountMinor: Number(row[`a${j}`] ?? 0) };
    });
    return out;
  }
}

/** A stored row back into the fields its check reads. */
export function storedFields(kind: string, name: string, params: Record<string, string | number>): RiskRuleFields {
  const text = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : "");
  const num = (k: string) => (typeof params[k] === "number" ? (params[k] as number) : 0);
  return {
    name,
    kind,
    transactionType: text("transactionType"),
    key: text("key"),
    windowSeconds: num("windowSeconds"),
    maxCount: num("maxCount"),
    maxAmountMinor: num("maxAmountMinor"),
    currency: text("currency"),
    period: text("period"),
    binCountries: text("binCountries"),
  };
}
