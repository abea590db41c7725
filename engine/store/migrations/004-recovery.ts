/**
 * Recovery after a crash, and replies seen by the platform:
 * - an attempt whose engine died mid-way (Validation, a processor call) is
 *   found by a sweep over the attempts created since the last sweep
 *   (recovery_watermark), two minutes after their creation, instead of staying
 *   pending forever. A sweep rather than a check time set on every new row:
 *   such a column, indexed, would cost every status change its HOT update
 *   (measured: about 15% of the Process rate);
 * - `replied` marks an attempt whose non-final state a repeated request has
 *   already told the platform, so its next change is notified even when it is
 *   made inside the original Process call;
 * - `completing_until` claims a 3-D Secure challenge while the processor is
 *   asked, so a second click or the expiry cannot finish it twice;
 * - the transition trigger also checks inserts: an attempt is born in its
 *   type's initial state.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration004Recovery extends Migration {
  override name = "004-recovery";

  override up(): void {
    this.addSql(`alter table transaction
  add column replied boolean not null default false,
  add column completing_until timestamptz null;`);
    this.addSql(`create table recovery_watermark (
  id smallint primary key check (id = 1),
  scanned_to timestamptz not null
);`);
    this.addSql(`insert into recovery_watermark (id, scanned_to) values (1, now());`);
    this.addSql(`
create function transaction_initial_check() returns trigger language plpgsql as $$
declare
  v_type text;
begin
  select o.type into v_type from payment_order o where o.id = new.order_ref;
  if new.status <> (case when v_type = 'payout' then 'requested' else 'pending' end) or new.payout_letter is not null then
    raise exception 'a % is not created as %', v_type, new.status || coalesce(':' || new.payout_letter, '') using errcode = 'check_violation';
  end if;
  return new;
end $$;`);
    this.addSql(`create trigger transaction_initial before insert on transaction
  for each row execute function transaction_initial_check();`);
  }
}
