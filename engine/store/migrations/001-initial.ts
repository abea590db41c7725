/**
 * The first schema: merchants and their frontends, orders, their attempts
 * (transactions, keyed by the trace_id sequence, which Postgres keeps below 2^31
 * as an integer sequence) and the status history. Card data columns hold only
 * the masked number, brand, expiry and a keyed fingerprint; the full number
 * only sealed (AES-256-GCM) and only while an attempt may still need it.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration001Initial extends Migration {
  override name = "001-initial";

  override up(): void {
    this.addSql(`
create table merchant (
  id text primary key,
  secret_sealed text not null,
  site_id integer null,
  platform_url text null,
  validation_url text null,
  update_payout_url text null,
  update_payout_statuses text not null default 'CAPYJ',
  payout_approval text not null default 'auto' check (payout_approval in ('auto', 'manual')),
  processors jsonb not null default '["sim-a", "sim-b"]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);`);
    this.addSql(`
create table frontend (
  id serial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  name text not null,
  base_currency char(3) not null,
  currencies jsonb not null,
  unique (merchant_id, name)
);`);
    this.addSql(`
create table payment_order (
  id bigserial primary key,
  merchant_id text not null references merchant (id),
  order_id text not null,
  type text not null check (type in ('sale', 'payout', 'refund')),
  fingerprint text not null,
  amount_minor bigint not null check (amount_minor > 0),
  currency char(3) not null,
  frontend text not null,
  pin text not null,
  customer jsonb not null,
  card_masked text not null,
  card_brand text not null,
  card_expiry text not null,
  card_fingerprint text not null,
  card_sealed text null,
  return_url text not null,
  notification_url text null,
  reference_trace_id integer null,
  created_at timestamptz not null default now(),
  constraint payment_order_merchant_order_unique unique (merchant_id, order_id)
);`);
    this.addSql(`
create table transaction (
  trace_id serial primary key,
  order_ref bigint not null references payment_order (id),
  attempt smallint not null check (attempt > 0),
  processor text not null,
  status text not null check (status in ('pending', 'approved', 'declined_retry', 'declined', 'cancelled', 'pending_async', 'requested')),
  payout_letter char(1) null check (payout_letter in ('A', 'P', 'Y', 'J', 'C')),
  deposit_state char(1) null check (deposit_state in ('N', 'E')),
  transaction_id text null,
  error_code integer null,
  error_details text null,
  redirect_url text null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (order_ref, attempt)
);`);
    this.addSql(`alter table payment_order add constraint payment_order_reference_fk foreign key (reference_trace_id) references transaction (trace_id);`);
    this.addSql(`create index payment_order_reference_idx on payment_order (reference_trace_id) where reference_trace_id is not null;`);
    this.addSql(`create index transaction_created_idx on transaction (created_at desc, trace_id desc);`);
    this.addSql(`
create table transaction_event (
  id bigserial primary key,
  trace_id integer not null references transaction (trace_id),
  from_status text null,
  to_status text not null,
  payout_letter char(1) null,
  cause text not null,
  at timestamptz not null default now()
);`);
    this.addSql(`create index transaction_event_trace_idx on transaction_event (trace_id, id);`);
  }
}
