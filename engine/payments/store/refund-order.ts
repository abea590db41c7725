/**
 * A refund's order and first attempt, in one database transaction with the
 * check that it fits what remains refundable of its sale. Refunds of one sale
 * serialise on the sale's attempt row, taken first (FOR NO KEY UPDATE, so the
 * new order's foreign key share lock is no conflict); what is approved or
 * still pending counts against the sale. Not the hot path: typed queries.
 */
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { Alongside, OrderDraft } from "../ports/orders.ts";
import { txOf } from "../../store/tx.ts";
import { attemptFromRow } from "./mappers.ts";
import { DomainFailure, domainError } from "../../shared/errors.ts";
import { formatMajor } from "../../shared/money.ts";
import { type AttemptRow, selectAttempts } from "./attempt-select.ts";
import { customerRecord } from "./customer-record.ts";
import { typedDb } from "../../store/typed-db.ts";

/**
 * The new refund's attempt; undefined when (merchant_id, order_id) exists already. Throws REFUND_EXCEEDS_REMAINING.
 * `alongside` (an operator's audit row) commits with the refund, or neither does.
 */
export async function createRefund(em: EntityManager, d: OrderDraft, saleTraceId: number, alongside?: Alongside): Promise<AttemptRow | undefined> {
  return em.transactional(async (tx) => {
    const db = typedDb(tx);
    const sale = await db
      .selectFrom("transaction as t")
      .innerJoin("payment_order as o", "o.id", "t.order_ref")
      .select("o.amount_minor")
      .where("t.trace_id", "=", saleTraceId)
      .forNoKeyUpdate("t")
      .executeTakeFirstOrThrow();
    // A refund (the platform's alone) is not made under a hosted Cashier withdrawal session's order_id: raises CW409
    // (migration 016), under a lock held until the commit.
    await sql`select cashier_order_id_unclaimed(${d.merchantId}, ${d.orderId})`.execute(db);
    const order = await db
      .insertInto("payment_order")
      .values({
        merchant_id: d.merchantId,
        order_id: d.orderId,
        type: d.type,
        fingerprint: d.fingerprint,
        amount_minor: d.amountMinor,
        currency: d.currency,
        frontend: d.frontend,
        pin: d.pin,
        customer: customerRecord(d.customer),
        card_masked: d.cardMasked,
        card_brand: d.cardBrand,
        card_expiry: d.cardExpiry,
        card_fingerprint: d.cardFingerprint,
        return_url: d.returnUrl,
        notification_url: d.notificationUrl,
        reference_trace_id: saleTraceId,
        created_by: d.origin?.createdBy ?? "api",
      })
      .onConflict((oc) => oc.constraint("payment_order_merchant_order_unique").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!order) return undefined;
    const { used } = await db
      .selectFrom("payment_order as o")
      .innerJoin("transaction as t", "t.order_ref", "o.id")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("o.amount_minor"), eb.lit(0)).as("used"))
      .where("o.reference_trace_id", "=", saleTraceId)
      .where("t.status", "in", ["pending", "approved"])
      .executeTakeFirstOrThrow();
    const remaining = sale.amount_minor - Number(used);
    const money = (minor: number) => `${formatMajor(minor, d.currency)} ${d.currency}`;
    if (d.amountMinor > remaining) {
      throw new DomainFailure(
        // In the currency's own decimals: the wire's unit differs by currency (BHD in whole dinars, USD in cents) and by caller.
        domainError("REFUND_EXCEEDS_REMAINING", `amount: ${money(d.amountMinor)} exceeds what remains refundable of the sale (${money(remaining)})`, [
          { field: "amount", description: `exceeds the sale's refundable remainder of ${money(remaining)}` },
        ]),
      );
    }
    const { trace_id } = await db
      .insertInto("transaction")
      .values({ order_ref: order.id, attempt: 1, processor: d.processor, status: d.initial.status, payout_letter: d.initial.letter ?? null })
      .returning("trace_id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("transaction_event")
      .values({ trace_id, from_status: null, to_status: d.initial.status, payout_letter: d.initial.letter ?? null, cause: "created" })
      .execute();
    const row = await selectAttempts(db).where("t.trace_id", "=", trace_id).executeTakeFirstOrThrow();
    if (alongside) await alongside(txOf(tx), attemptFromRow(row));
    return row;
  });
}
