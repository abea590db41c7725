/**
 * The acquirers' webhooks (issue 30, point 4; CONTRACT 11): every verified event is kept once, in
 * `acquirer_webhook_event`, the inbox. The unique (merchant_id, account, event_id) is what makes a replay a replay
 * (acquirers send at least once), also when two copies arrive at the same moment. `applied_at` is set in the same
 * database transaction as the status change the event made; null: the event changed nothing (an unknown type, no
 * such attempt, an attempt already past it). `outcome` says which. `body` is the raw body as it was verified, kept
 * for an operator. `trace_id` is not a foreign key: the retention purge may delete the attempt, not its event.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration018AcquirerWebhooks extends Migration {
  override name = "018-acquirer-webhooks";

  override up(): void {
    this.addSql(`create table acquirer_webhook_event (
  id bigserial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  account text not null,
  event_id text not null,
  event_type text not null,
  body bytea not null,
  received_at timestamptz not null default now(),
  applied_at timestamptz null,
  trace_id bigint null,
  outcome text null,
  constraint acquirer_webhook_event_once unique (merchant_id, account, event_id)
);`);
  }
}
