/**
 * Retention of sessions (docs/operations.md, Retention): the purge of ended
 * console sessions, pending sign-ins and hosted Cashier sessions, and the
 * clearing of expired enrolment tokens. Console sessions are found by kind
 * and end (the earlier of their end and their expiry: least() passes over a
 * null end), expired enrolment tokens by a partial index on the few operators
 * that hold one; hosted sessions are read by id after a watermark, like the
 * callbacks, since the ones an order still names are kept for good and must
 * not be read again at every step.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration014SessionRetention extends Migration {
  override name = "014-session-retention";

  override up(): void {
    this.addSql(`alter table retention_watermark drop constraint retention_watermark_name_check;`);
    this.addSql(
      `alter table retention_watermark add constraint retention_watermark_name_check check (name in ('callback', 'transaction_event', 'hosted_session'));`,
    );
    this.addSql(`insert into retention_watermark (name) values ('hosted_session');`);
    this.addSql(`create index console_session_end_idx on console_session (kind, (least(ended_at, expires_at)));`);
    this.addSql(`create index operator_enrol_expiry_idx on operator (enrol_expires_at) where enrol_token_hash is not null;`);
  }
}
