/**
 * The operators' searches (docs/decisions/0012-search-indexes.md). Every list
 * walks orders newest first, (created_at, id) descending, through one of
 * these indexes, so a search is a seek plus a walk that stops at the page:
 * - payment_order (created_at, id): all merchants, and time windows;
 * - payment_order (merchant_id, created_at, id): one merchant's orders;
 * - payment_order (pin, ...), (lower(customer->>'email'), ...),
 *   (right(card_masked, 4), ...): a customer, an e-mail address (matched
 *   without case), the last four digits of the card. Expressions over the
 *   columns the order is written with, so the Process statements write
 *   nothing new and the indexes are built over the existing rows here;
 * - transaction (trace_id) where non-final: stuck transactions and the
 *   payouts waiting for a decision;
 * - transaction (transaction_id): the processor's id of a payment.
 *   Both cost every status change its HOT update (measured and weighed in
 *   the decision record);
 * - callback (merchant_id, id) where not delivered: deliveries that failed,
 *   were refused or keep being retried.
 * payment_order is written once per order (only card_sealed changes, which
 * no index names), so its indexes cost an insert each and never a HOT update.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration011SearchIndexes extends Migration {
  override name = "011-search-indexes";

  override up(): void {
    this.addSql("create index if not exists payment_order_created_idx on payment_order (created_at desc, id desc);");
    this.addSql("create index if not exists payment_order_merchant_created_idx on payment_order (merchant_id, created_at desc, id desc);");
    this.addSql("create index if not exists payment_order_pin_idx on payment_order (pin, created_at desc, id desc);");
    this.addSql("create index if not exists payment_order_email_idx on payment_order (lower(customer ->> 'email'), created_at desc, id desc);");
    this.addSql("create index if not exists payment_order_last_four_idx on payment_order (right(card_masked, 4), created_at desc, id desc);");
    // Two B-trees naming columns a status change writes: together they cost each status change its HOT
    // update, which the open attempts' index alone already does (decision 0012 measures and weighs it).
    this.addSql("create index if not exists transaction_open_idx on transaction (trace_id) where status in ('pending', 'pending_async', 'requested');");
    this.addSql("create index if not exists transaction_processor_id_idx on transaction (transaction_id) where transaction_id is not null;");
    this.addSql("create index if not exists callback_unsettled_idx on callback (merchant_id, id desc) where state <> 'delivered';");
  }
}
