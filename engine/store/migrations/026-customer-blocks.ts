/**
 * Blocks and operator notes (issue 32, point 3; docs/backoffice-operations.md, Blocks):
 *
 * - `customer_block`: an operator's block at a merchant of a customer (`kind` customer, `value` the pin), a card
 *   (`card`, the card's keyed fingerprint, as saved cards and the closed loop keep it), an e-mail (`email`,
 *   lower-cased and trimmed) or a BIN (`bin`, 6 or 8 digits), with its reason, who made it and from which
 *   customer's page (`pin`), and once lifted who lifted it, when and why. `label` is what an operator sees of the
 *   value: never the fingerprint, and a card only masked. At most one held block per value (the partial unique
 *   index), which is also the index the Process call's one lookup walks.
 * - `customer_note`: an operator's note on a customer, kept as written (append-only for the service role).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration026CustomerBlocks extends Migration {
  override name = "026-customer-blocks";

  override up(): void {
    this.addSql(`create table customer_block (
  id bigserial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  kind text not null check (kind in ('customer', 'card', 'email', 'bin')),
  value text not null check (length(value) between 1 and 200),
  label text not null,
  reason text not null,
  pin text not null,
  created_by text not null,
  created_at timestamptz not null default now(),
  lifted_by text null,
  lifted_at timestamptz null,
  lift_reason text null,
  check ((lifted_at is null) = (lifted_by is null)),
  check (kind <> 'bin' or value ~ '^([0-9]{6}|[0-9]{8})$')
);`);
    this.addSql(`create unique index customer_block_held_unique on customer_block (merchant_id, kind, value) where lifted_at is null;`);
    this.addSql(`create index customer_block_pin_idx on customer_block (merchant_id, pin, id);`);
    this.addSql(`create table customer_note (
  id bigserial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  pin text not null,
  body text not null check (length(body) between 1 and 1000),
  created_by text not null,
  created_at timestamptz not null default now()
);`);
    this.addSql(`create index customer_note_pin_idx on customer_note (merchant_id, pin, id);`);
  }
}
