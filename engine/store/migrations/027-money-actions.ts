/**
 * The Backoffice's money actions (docs/backoffice-operations.md, Money
 * actions):
 * - a hold on a payout waiting for a decision: who held it, why, when. While
 *   it stands, no approval is taken and the queue lists the payout apart; a
 *   release deletes it. It goes with its payout (on delete cascade).
 * - the first of a refund's two approvals, above the merchant's four-eyes
 *   amount: one waiting request per sale, with the amount asked for and the
 *   form's key that names the refund once it is made (bo-refund-<key>).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration027MoneyActions extends Migration {
  override name = "027-money-actions";

  override up(): void {
    this.addSql(`create table payout_hold (
  trace_id integer primary key references transaction (trace_id) on delete cascade,
  login text not null,
  reason text not null,
  held_at timestamptz not null default now()
);`);
    this.addSql(`create table refund_first_approval (
  sale_trace_id integer primary key references transaction (trace_id) on delete cascade,
  request_id text not null,
  amount_minor bigint not null check (amount_minor > 0),
  currency char(3) not null,
  login text not null,
  reason text not null,
  approved_at timestamptz not null default now()
);`);
  }
}
