/**
 * Retention (docs/operations.md, Retention): how far the purge of settled
 * callbacks (with their attempts) and of final transactions' status history
 * has read each table, by id. Each purge step reads the next batch of ids
 * after its watermark, so a step costs the same at ten rows or ten million,
 * and no index is added to the tables the hot path writes.
 * Numbered 010: 009 is the hosted Cashier's.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration010Retention extends Migration {
  override name = "010-retention";

  override up(): void {
    this.addSql(`create table retention_watermark (
  name text primary key check (name in ('callback', 'transaction_event')),
  after_id bigint not null default 0
);`);
    this.addSql(`insert into retention_watermark (name) values ('callback'), ('transaction_event');`);
  }
}
