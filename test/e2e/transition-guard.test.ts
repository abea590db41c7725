/**
 * No transition outside CONTRACT section 5 can be stored, even by SQL that
 * bypasses the engine: the database holds the same table as the domain and a
 * trigger refuses every other change. Every (state, target) pair of every type
 * is tried on a real row.
 */
import t from "tap";
import pg from "pg";
import { canTransition, statesOf, type State } from "../../engine/payments/domain/transitions.ts";
import { TRANSITIONS } from "../../engine/payments/domain/transitions.ts";
import type { PayoutLetter, TransactionStatus, TransactionType } from "../../engine/shared/transaction.ts";
import { serviceRoleName, serviceRoleUrl } from "../../engine/store/service-role.ts";
import { useService } from "../support/service.ts";
import { sqlOutcome } from "../support/sql-outcome.ts";
import { processSale } from "../support/wire.ts";

const svc = useService(t);

const parse = (key: string): State => {
  const [status, letter] = key.split(":");
  return { status: status as TransactionStatus, letter: (letter as PayoutLetter | undefined) ?? null };
};

t.test("the database's allowed_transition table is the domain's TRANSITIONS", async (t) => {
  const rows = await svc().sql<{ type: string; from_state: string; to_state: string }>(`select type, from_state, to_state from allowed_transition`);
  const db = rows.map((r) => `${r.type} ${r.from_state} -> ${r.to_state}`).sort();
  const domain = Object.entries(TRANSITIONS)
    .flatMap(([type, m]) => Object.entries(m).flatMap(([from, tos]) => tos.map((to) => `${type} ${from} -> ${to}`)))
    .sort();
  t.same(db, domain);
});

t.test("every (state, target) pair: stored when the table allows it, refused by the database otherwise", async (t) => {
  const sale = await processSale(svc().edgeUrl, {});
  const payout = await processSale(svc().edgeUrl, { transaction_type: "payout", cvv: undefined });
  const refund = await processSale(svc().edgeUrl, { transaction_type: "refund", cvv: undefined, amount: 100, reference_id: String(sale.body.trace_id) });
  const rows: Record<TransactionType, number> = { sale: sale.body.trace_id, payout: payout.body.trace_id, refund: refund.body.trace_id };
  const client = new pg.Client({ connectionString: svc().engine.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  let tried = 0;
  for (const type of ["sale", "payout", "refund"] as const) {
    for (const fromKey of statesOf(type)) {
      for (const toKey of statesOf(type)) {
        if (fromKey === toKey) continue;
        const from = parse(fromKey);
        const to = parse(toKey);
        await client.query("begin");
        try {
          // Put the row in `from` behind the trigger's back, then try the move.
          await client.query("alter table transaction disable trigger transaction_transition");
          await client.query("update transaction set status = $1, payout_letter = $2 where trace_id = $3", [from.status, from.letter, rows[type]]);
          await client.query("alter table transaction enable trigger transaction_transition");
          await client.query("savepoint move");
          let error = "";
          try {
            await client.query("update transaction set status = $1, payout_letter = $2 where trace_id = $3", [to.status, to.letter, rows[type]]);
          } catch (err) {
            error = (err as Error).message;
            await client.query("rollback to savepoint move");
          }
          const allowed = canTransition(type, from, to);
          if (allowed) t.equal(error, "", `${type} ${fromKey} -> ${toKey} is stored`);
          else t.match(error, /is not allowed/, `${type} ${fromKey} -> ${toKey} is refused`);
          tried++;
        } finally {
          await client.query("rollback");
        }
      }
    }
  }
  t.equal(tried, 6 * 5 + 6 * 5 + 3 * 2, "every ordered pair of distinct states");
  const [{ status }] = await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [sale.body.trace_id]);
  t.equal(status, "approved", "nothing leaked out of the rolled-back tries");
});

t.test("an attempt is born only in its type's initial state", async (t) => {
  const sale = await processSale(svc().edgeUrl, {});
  const [{ order_ref }] = await svc().sql<{ order_ref: string }>("select order_ref from transaction where trace_id = $1", [sale.body.trace_id]);
  await t.rejects(
    svc().sql(`insert into transaction (order_ref, attempt, processor, status) values ($1, 9, 'sim-b', 'approved')`, [order_ref]),
    /a sale is not created as approved/,
    "no attempt is inserted already approved",
  );
  const inserted = await svc().sql(`insert into transaction (order_ref, attempt, processor, status) values ($1, 9, 'sim-b', 'pending') returning trace_id`, [
    order_ref,
  ]);
  t.equal(inserted.length, 1, "pending is how a sale's attempt starts");
});

t.test(
  "the engine serves as its database's service role, which writes rows but cannot switch the guard off, loosen its table or rewrite the audit log",
  async (t) => {
    await processSale(svc().edgeUrl, {});
    const serving = await svc().sql<{ usename: string }>(
      "select distinct usename from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
    );
    t.same(
      serving.map((r) => r.usename),
      [serviceRoleName(svc().databaseName)],
      "every connection of the engine (the serving pool, the work listener) is the service role's",
    );
    const asRole = serviceRoleUrl(svc().engine.databaseUrl);
    const refused = (sql: string) => sqlOutcome(asRole, sql);
    t.equal(await refused("select count(*) from transaction"), "done", "it reads the rows it serves");
    t.same(
      await Promise.all([
        refused("alter table transaction disable trigger transaction_transition"),
        refused("insert into allowed_transition (type, from_state, to_state) values ('sale', 'declined', 'approved')"),
        refused("delete from allowed_transition"),
        refused("update audit_log set actor = 'someone else'"),
        refused("delete from audit_log"),
        refused("truncate audit_log"),
        refused("delete from mikro_orm_migrations"),
        refused("create table intruder (x int)"),
      ]),
      ["42501", "42501", "42501", "42501", "42501", "42501", "42501", "42501"],
      "each refused for want of privilege (42501)",
    );
  },
);
