/**
 * The operators' searches as SQL (docs/decisions/0012-search-indexes.md).
 * The store runs exactly these builders, and the plan test explains them, so
 * what is tested is what runs.
 *
 * A transaction search walks orders newest first, (created_at, id)
 * descending, through the index that the filters on the order pick (the
 * merchant's, the customer's pin, the e-mail address, the card's last four,
 * the order_id, a trace_id or processor id through the attempts, or all orders
 * by time). The filters no index serves (status, processor, type, frontend, an
 * operator's set of merchants) are applied to the attempts of at most SEARCH_SCAN_BUDGET of those orders
 * per call; when they fill no page within it, the page comes back short with a
 * token that resumes after the last order read. A search matching nothing
 * thus reads a bounded number of rows per call, never the whole table.
 */
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { ListQuery, SearchKey, StuckQuery } from "../ports/orders.ts";
import { attemptExtras, attemptRefs, selectAttempts } from "./attempt-select.ts";
import type { CashierDb } from "../../store/typed-db.ts";

/** Orders (or callbacks) a single search call reads at most beyond its index's own filters. */
export const SEARCH_SCAN_BUDGET = 2000;

/** States an attempt may still leave; the stuck listing's partial index holds only these. */
export const OPEN_STATES = ["pending", "pending_async", "requested"] as const;

type Db = Kysely<CashierDb>;

/** An order's created_at printed exactly (microseconds, UTC), for page tokens. */
const exactTime = (col: string) => sql<string>`to_char(${sql.ref(col)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The orders a search may show, newest first: only filters an index serves, at most `budget` of them. */
export function searchOrders(db: Db, q: ListQuery, budget = SEARCH_SCAN_BUDGET) {
  const after = q.after;
  return db
    .selectFrom("payment_order as o")
    .select(["o.id", "o.created_at"])
    .$if(!!q.merchantId, (s) => s.where("o.merchant_id", "=", q.merchantId!))
    .$if(!!q.orderId, (s) => s.where("o.order_id", "=", q.orderId!))
    .$if(!!q.pin, (s) => s.where("o.pin", "=", q.pin!))
    .$if(!!q.email, (s) => s.where(sql<boolean>`lower(o.customer ->> 'email') = lower(${q.email!})`))
    .$if(!!q.cardLastFour, (s) => s.where(sql<boolean>`right(o.card_masked, 4) = ${q.cardLastFour!}`))
    .$if(!!q.traceId, (s) => s.where("o.id", "in", (eb) => eb.selectFrom("transaction as x").select("x.order_ref").where("x.trace_id", "=", q.traceId!)))
    .$if(!!q.processorTransactionId, (s) =>
      s.where("o.id", "in", (eb) => eb.selectFrom("transaction as x").select("x.order_ref").where("x.transaction_id", "=", q.processorTransactionId!)),
    )
    .$if(!!q.startTime, (s) => s.where("o.created_at", ">=", q.startTime!))
    .$if(!!q.endTime, (s) => s.where("o.created_at", "<", q.endTime!))
    .$if(!!after, (s) => s.where(sql<boolean>`(o.created_at, o.id) <= (${after!.orderCreatedAt}::timestamptz, ${after!.orderRef}::bigint)`))
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(budget);
}

/**
 * One page of attempts: those of the searched orders that pass the other
 * filters, in the search's order. Each order's attempts are read by a lateral
 * subquery, an index lookup per order, so the planner cannot trade the walk
 * for a scan of every attempt when it expects the filters to match little.
 */
export function searchPage(db: Db, q: ListQuery, budget = SEARCH_SCAN_BUDGET) {
  const after = q.after;
  return db
    .selectFrom(searchOrders(db, q, budget).as("c"))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("transaction as t")
          .innerJoin("payment_order as o", "o.id", "t.order_ref")
          .select(attemptRefs("t"))
          .select(attemptExtras)
          .select(exactTime("o.created_at").as("order_created_at"))
          .whereRef("o.id", "=", "c.id")
          .whereRef("t.order_ref", "=", "c.id")
          .$if(!!q.traceId, (s) => s.where("t.trace_id", "=", q.traceId!))
          .$if(!!q.processorTransactionId, (s) => s.where("t.transaction_id", "=", q.processorTransactionId!))
          .$if(!!q.status, (s) => s.where("t.status", "=", q.status!))
          .$if(!!q.processor, (s) => s.where("t.processor", "=", q.processor!))
          .$if(!!q.type, (s) => s.where("o.type", "=", q.type!))
          .$if(!!q.frontend, (s) => s.where("o.frontend", "=", q.frontend!))
          .$if(!!q.merchantIds, (s) => s.where("o.merchant_id", "in", [...q.merchantIds!]))
          .$if(!!after, (s) =>
            s.where(
              sql<boolean>`(o.created_at, o.id, t.attempt) < (${after!.orderCreatedAt}::timestamptz, ${after!.orderRef}::bigint, ${after!.attempt}::int)`,
            ),
          )
          // OFFSET 0 keeps the subquery from being flattened into a join the planner may run as a scan of every attempt.
          .offset(0)
          .as("a"),
      (join) => join.onTrue(),
    )
    .selectAll("a")
    .orderBy("c.created_at", "desc")
    .orderBy("c.id", "desc")
    .orderBy("a.attempt", "desc")
    .limit(q.limit);
}

/**
 * The last order a search call may read (the budget's edge), when it has that many: a short page resumes after it.
 * One row: the walk's `budget`th (LIMIT counts after OFFSET, so the limit is 1, not the budget).
 */
export function searchEdge(db: Db, q: ListQuery, budget = SEARCH_SCAN_BUDGET) {
  return db
    .selectFrom(
      searchOrders(db, q, 1)
        .offset(budget - 1)
        .as("c"),
    )
    .select(["c.id", exactTime("c.created_at").as("order_created_at")]);
}

/** The search key of an order, resuming after all of its attempts. */
export function afterOrder(orderCreatedAt: string, orderRef: number): SearchKey {
  return { orderCreatedAt, orderRef, attempt: 0 };
}

/** Attempts still non-final created before the horizon, oldest first: a walk of the partial index of open attempts. */
export function stuckAttempts(db: Db, q: StuckQuery) {
  return selectAttempts(db)
    .where("t.status", "in", [...OPEN_STATES])
    .where("t.created_at", "<", q.createdBefore)
    .$if(!!q.merchantId, (s) => s.where("o.merchant_id", "=", q.merchantId!))
    .$if(!!q.afterTraceId, (s) => s.where("t.trace_id", ">", q.afterTraceId!))
    .orderBy("t.trace_id", "asc")
    .limit(q.limit);
}
