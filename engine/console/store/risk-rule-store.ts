/**
 * Risk rules on Postgres for the console (ports/risk-rules.ts): risk_rule
 * (030) read and written with the rule's fields as its params (checked again
 * at load by the payments module's own check), and the stored orders a dry
 * run is tried on: the merchant's orders since a time (its
 * payment_order_merchant_created_idx), each with whether an attempt of it
 * holds or may hold money.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import { type DryRunOrder, fieldsOfRule, parseRiskRule, type RiskRule } from "../../payments/index.ts";
import { storedFields } from "../../payments/store/index.ts";
import type { TransactionType } from "../../shared/transaction.ts";
import type { Tx } from "../../store/tx.ts";
import type { RiskRuleRecord, RiskRuleRecords, RiskRuleSource } from "../ports/risk-rules.ts";
import { consoleDb } from "./console-db.ts";

interface Row {
  id: number;
  merchant_id: string;
  kind: string;
  name: string;
  params: Record<string, string | number>;
  updated_by: string;
  updated_at: Date;
  source: RiskRuleSource;
}

function recordOf(r: Row): RiskRuleRecord | undefined {
  const parsed = parseRiskRule(r.id, storedFields(r.kind, r.name, r.params));
  return parsed.ok ? { merchantId: r.merchant_id, rule: parsed.rule, updatedBy: r.updated_by, updatedAt: r.updated_at, source: r.source } : undefined;
}

/** The rule's parameters as stored: its written fields but the name and kind, which have their columns. */
function paramsOf(rule: RiskRule): Record<string, string | number> {
  const { name: _n, kind: _k, ...params } = fieldsOfRule(rule);
  return params;
}

const COLUMNS = ["id", "merchant_id", "kind", "name", "params", "updated_by", "updated_at", "source"] as const;

export class PgRiskRuleStore implements RiskRuleRecords {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async list(merchantId: string): Promise<RiskRuleRecord[]> {
    const rows = await consoleDb(this.#orm).selectFrom("risk_rule").select(COLUMNS).where("merchant_id", "=", merchantId).orderBy("id").execute();
    return rows.flatMap((r) => recordOf(r as Row) ?? []);
  }

  async get(merchantId: string, id: number, tx?: Tx): Promise<RiskRuleRecord | undefined> {
    const r = await consoleDb(this.#orm, tx)
      .selectFrom("risk_rule")
      .select(COLUMNS)
      .where("merchant_id", "=", merchantId)
      .where("id", "=", id)
      .executeTakeFirst();
    return r && recordOf(r as Row);
  }

  async add(merchantId: string, rule: RiskRule, by: string, max: number, tx: Tx): Promise<RiskRuleRecord | undefined> {
    const db = consoleDb(this.#orm, tx);
    // Two admins adding at once: the merchant's row locked, so the count and the insert are one step.
    await sql`select 1 from merchant where id = ${merchantId} for update`.execute(db);
    const { n } = await db
      .selectFrom("risk_rule")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return undefined;
    const r = await db
      .insertInto("risk_rule")
      .values({ merchant_id: merchantId, kind: rule.kind, name: rule.name, params: paramsOf(rule), created_by: by, updated_by: by })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return recordOf(r as Row);
  }

  async replace(merchantId: string, rule: RiskRule, by: string, tx: Tx): Promise<RiskRuleRecord | undefined> {
    const r = await consoleDb(this.#orm, tx)
      .updateTable("risk_rule")
      .set({ kind: rule.kind, name: rule.name, params: paramsOf(rule), updated_by: by, updated_at: sql<Date>`now()` })
      .where("merchant_id", "=", merchantId)
      .where("id", "=", rule.id)
      .where("source", "=", "console")
      .returning(COLUMNS)
      .executeTakeFirst();
    return r && recordOf(r as Row);
  }

  async delete(merchantId: string, id: number, tx: Tx): Promise<boolean> {
    const r = await consoleDb(this.#orm, tx)
      .deleteFrom("risk_rule")
      .where("merchant_id", "=", merchantId)
      .where("id", "=", id)
      .where("source", "=", "console")
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async fileRules(merchantId: string, tx: Tx): Promise<RiskRuleRecord[]> {
    const db = consoleDb(this.#orm, tx);
    await sql`select 1 from merchant where id = ${merchantId} for update`.execute(db);
    const rows = await db.selectFrom("risk_rule").select(COLUMNS).where("merchant_id", "=", merchantId).where("source", "=", "file").orderBy("id").execute();
    return rows.flatMap((r) => recordOf(r as Row) ?? []);
  }

  async replaceFileRules(merchantId: string, rules: readonly RiskRule[], by: string, tx: Tx): Promise<RiskRuleRecord[]> {
    const db = consoleDb(this.#orm, tx);
    await db.deleteFrom("risk_rule").where("merchant_id", "=", merchantId).where("source", "=", "file").execute();
    if (rules.length === 0) return [];
    const rows = await db
      .insertInto("risk_rule")
      .values(
        rules.map((rule) => ({
          merchant_id: merchantId,
          kind: rule.kind,
          name: rule.name,
          params: paramsOf(rule),
          created_by: by,
          updated_by: by,
          source: "file" as const,
        })),
      )
      .returning(COLUMNS)
      .execute();
    return rows.flatMap((r) => recordOf(r as Row) ?? []).sort((a, b) => a.rule.id - b.rule.id);
  }

  async ordersSince(merchantId: string, from: Date, limit: number): Promise<DryRunOrder[]> {
    const rows = await sql<{
      created_at: Date | string;
      type: TransactionType;
      amount_minor: string | number;
      currency: string;
      pin: string;
      email: string | null;
      ip: string | null;
      country: string | null;
      card_masked: string;
      card_fingerprint: string;
      live: boolean;
    }>`select o.created_at, o.type, o.amount_minor, o.currency, o.pin, o.customer ->> 'email' as email,
  o.customer ->> 'requester_ip' as ip, o.customer ->> 'country' as country, o.card_masked, o.card_fingerprint,
  exists (select 1 from transaction t where t.order_ref = o.id and t.status in ('approved', 'pending', 'pending_async')) as live
from payment_order o where o.merchant_id = ${merchantId} and o.created_at >= ${from}
order by o.created_at desc, o.id desc limit ${limit}`.execute(consoleDb(this.#orm));
    return rows.rows.reverse().map((r) => ({
      createdAt: new Date(r.created_at),
      type: r.type,
      amountMinor: Number(r.amount_minor),
      currency: r.currency.trim(),
      pin: r.pin,
      email: r.email ?? "",
      ip: r.ip ?? "",
      country: r.country ?? "",
      // The masked number keeps the BIN's first 6 digits; the rest is never stored whole.
      cardNumber: r.card_masked.replace(/\*.*$/, ""),
      cardFingerprint: r.card_fingerprint,
      live: r.live,
    }));
  }
}
