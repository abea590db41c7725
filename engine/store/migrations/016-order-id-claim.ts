/**
 * One owner for each order_id of a merchant, between the platform's Process
 * orders (payment_order) and the hosted Cashier's withdrawal sessions
 * (hosted_session, keyed `w:<order_id>`), which live in two tables: no unique
 * constraint spans both, and a check on each side alone let both through when
 * they came at the same moment (test/e2e/session-start.test.ts).
 *
 * Both sides now take one transaction-scoped advisory lock on the pair
 * (merchant_id, order_id) before they look at the other table, and hold it
 * until they commit: whichever comes second waits, and then sees what the first
 * wrote. The lock is keyed by a hash, so two pairs sharing one only wait for
 * each other.
 *
 * - `cashier_order_id_lock(merchant, order)` takes the lock.
 * - `cashier_order_id_unclaimed(merchant, order)` takes it, then looks for a
 *   withdrawal session under the order_id, and raises SQLSTATE `CW409` when
 *   there is one. It is VOLATILE on purpose: in READ COMMITTED its query reads
 *   a snapshot taken after the lock was granted, not the calling statement's,
 *   so the Process order's one statement can call it inside its insert.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration016OrderIdClaim extends Migration {
  override name = "016-order-id-claim";

  override up(): void {
    this.addSql(`create function cashier_order_id_lock(p_merchant text, p_order text) returns void
  language sql volatile as $$ select pg_advisory_xact_lock(7101, hashtext(p_merchant || '/' || p_order)) $$;`);
    this.addSql(`create function cashier_order_id_unclaimed(p_merchant text, p_order text) returns boolean
  language plpgsql volatile as $$
begin
  perform cashier_order_id_lock(p_merchant, p_order);
  if exists (select 1 from hosted_session where merchant_id = p_merchant and idempotency_key = 'w:' || p_order) then
    raise exception 'order_id % names a hosted Cashier withdrawal session', p_order using errcode = 'CW409';
  end if;
  return true;
end $$;`);
  }
}
