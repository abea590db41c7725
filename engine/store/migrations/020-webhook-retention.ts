/**
 * Retention of the acquirers' webhook inbox (docs/operations.md, Retention): acquirer_webhook_event keeps each
 * verified event's raw body (Adyen's carries the shopper's details as Adyen sends them), so it is purged like the
 * callbacks, by id after a watermark, once older than CASHIER_RETENTION_WEBHOOK_DAYS. A kept event never changes
 * (its applied_at is written with it), so every old row goes; no index is added to a table the webhooks write.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration020WebhookRetention extends Migration {
  override name = "020-webhook-retention";

  override up(): void {
    this.addSql(`alter table retention_watermark drop constraint retention_watermark_name_check;`);
    this.addSql(
      `alter table retention_watermark add constraint retention_watermark_name_check check (name in ('callback', 'transaction_event', 'hosted_session', 'acquirer_webhook_event'));`,
    );
    this.addSql(`insert into retention_watermark (name) values ('acquirer_webhook_event');`);
  }
}
