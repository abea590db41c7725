/**
 * The operators' callback listings as SQL (docs/decisions/0012-search-indexes.md),
 * run by the store and explained by the plan test.
 *
 * ListDeliveries walks callbacks newest first through the index its filters
 * pick (the merchant's, the unsettled ones' for a state other than delivered,
 * a transaction's) and applies `kind`, which no index serves, to at most
 * SEARCH_SCAN_BUDGET of them per call, like the transaction search.
 * The failing listing walks the partial index of callbacks not delivered.
 */
import type { Kysely } from "kysely";
import type { CallbackFilter, FailingFilter } from "../ports/callbacks.ts";
import { SEARCH_SCAN_BUDGET } from "./transaction-search.ts";
import type { CashierDb } from "../../store/typed-db.ts";

type Db = Kysely<CashierDb>;

/** The callbacks a listing may show, newest first, at most `budget`: only filters an index serves. */
export function deliveryCandidates(db: Db, f: CallbackFilter, budget = SEARCH_SCAN_BUDGET) {
  return db
    .selectFrom("callback as c")
    .select("c.id")
    .$if(!!f.merchantId, (q) => q.where("c.merchant_id", "=", f.merchantId!))
    .$if(!!f.state, (q) => q.where("c.state", "=", f.state!))
    .$if(!!f.traceId, (q) => q.where("c.trace_id", "=", f.traceId!))
    .$if(!!f.beforeId, (q) => q.where("c.id", "<", f.beforeId!))
    .orderBy("c.id", "desc")
    .limit(budget);
}

/**
 * One page of callbacks, newest first. Each candidate's row is read by a
 * lateral subquery (a primary-key lookup), so a kind that matches little
 * cannot turn the walk into a scan of every callback.
 */
export function deliveryPage(db: Db, f: CallbackFilter, budget = SEARCH_SCAN_BUDGET) {
  return db
    .selectFrom(deliveryCandidates(db, f, budget).as("d"))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("callback")
          .selectAll("callback")
          .whereRef("callback.id", "=", "d.id")
          .$if(!!f.kind, (q) => q.where("callback.kind", "=", f.kind!))
          // OFFSET 0: not flattened into a join that may scan every callback.
          .offset(0)
          .as("x"),
      (join) => join.onTrue(),
    )
    .selectAll("x")
    .orderBy("d.id", "desc")
    .limit(f.limit);
}

/** The last callback a listing call may read (the budget's edge), when it has that many: one row, the `budget`th. */
export function deliveryEdge(db: Db, f: CallbackFilter, budget = SEARCH_SCAN_BUDGET) {
  return db
    .selectFrom(
      deliveryCandidates(db, f, 1)
        .offset(budget - 1)
        .as("e"),
    )
    .select("e.id");
}

/** Callbacks failed or refused, or still pending after `minAttempts` tries, newest first. */
export function failingDeliveries(db: Db, f: FailingFilter) {
  return db
    .selectFrom("callback")
    .selectAll()
    .where("state", "<>", "delivered")
    .where((eb) => eb.or([eb("state", "in", ["failed", "refused"]), eb("attempts", ">=", f.minAttempts)]))
    .$if(!!f.merchantId, (q) => q.where("merchant_id", "=", f.merchantId!))
    .$if(!!f.beforeId, (q) => q.where("id", "<", f.beforeId!))
    .orderBy("id", "desc")
    .limit(f.limit);
}
