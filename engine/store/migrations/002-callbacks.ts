/**
 * The asynchronous life of a transaction: the callback outbox with every
 * attempt at each callback, cashier sessions (the Validation auth_token, kept
 * only as a keyed hash), and what the follow-up worker needs on each attempt:
 * when it is next due (a pending answer to poll, a cascade attempt to submit,
 * a 3-D Secure challenge to expire) and the processor's own decline code.
 * RecordFailedDeposit is at most once per transaction by a unique index.
 * The transition table of CONTRACT section 5 is also held by the database:
 * a trigger refuses any status change not in allowed_transition (a test keeps
 * that table equal to the domain's TRANSITIONS).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration002Callbacks extends Migration {
  override name = "002-callbacks";

  override up(): void {
    this.addSql(`alter table transaction
  add column next_check_at timestamptz null,
  add column submitted boolean not null default true,
  add column challenge_expires_at timestamptz null,
  add column processor_code text null;`);
    this.addSql(`create index transaction_due_idx on transaction (next_check_at) where next_check_at is not null;`);
    this.addSql(`
create table cashier_session (
  order_ref bigint primary key references payment_order (id),
  token_hash text not null unique,
  created_at timestamptz not null default now()
);`);
    this.addSql(`
create table callback (
  id bigserial primary key,
  event_id uuid not null unique,
  kind text not null check (kind in ('validation', 'notification', 'update_payout', 'record_failed_deposit')),
  merchant_id text not null references merchant (id),
  trace_id integer not null references transaction (trace_id),
  url text not null,
  body text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'refused', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claim uuid null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);`);
    this.addSql(`create unique index callback_rfd_once on callback (trace_id) where kind = 'record_failed_deposit';`);
    this.addSql(`create index callback_due_idx on callback (next_attempt_at) where state = 'pending';`);
    this.addSql(`create index callback_trace_idx on callback (trace_id, id);`);
    this.addSql(`create index callback_merchant_idx on callback (merchant_id, id desc);`);
    this.addSql(`
create table callback_attempt (
  id bigserial primary key,
  callback_id bigint not null references callback (id),
  at timestamptz not null,
  duration_ms integer not null,
  http_status integer not null default 0,
  response_body text not null default '',
  outcome text not null,
  error text not null default ''
);`);
    this.addSql(`create index callback_attempt_callback_idx on callback_attempt (callback_id, id);`);
    this.addSql(`
create table allowed_transition (
  type text not null,
  from_state text not null,
  to_state text not null,
  primary key (type, from_state, to_state)
);`);
    this.addSql(`insert into allowed_transition (type, from_state, to_state) values
  ('sale', 'pending', 'approved'),
  ('sale', 'pending', 'declined'),
  ('sale', 'pending', 'declined_retry'),
  ('sale', 'pending', 'pending_async'),
  ('sale', 'pending', 'cancelled'),
  ('sale', 'pending_async', 'approved'),
  ('sale', 'pending_async', 'declined'),
  ('sale', 'pending_async', 'cancelled'),
  ('payout', 'requested', 'pending:A'),
  ('payout', 'requested', 'declined:J'),
  ('payout', 'requested', 'cancelled:C'),
  ('payout', 'pending:A', 'pending:P'),
  ('payout', 'pending:A', 'cancelled:C'),
  ('payout', 'pending:P', 'approved:Y'),
  ('payout', 'pending:P', 'declined:J'),
  ('refund', 'pending', 'approved'),
  ('refund', 'pending', 'declined');`);
    this.addSql(`
create function transaction_transition_check() returns trigger language plpgsql as $$
declare
  v_type text;
  v_from text := old.status || coalesce(':' || old.payout_letter, '');
  v_to text := new.status || coalesce(':' || new.payout_letter, '');
begin
  if v_from = v_to then
    return new;
  end if;
  select o.type into v_type from payment_order o where o.id = new.order_ref;
  if not exists (select 1 from allowed_transition a where a.type = v_type and a.from_state = v_from and a.to_state = v_to) then
    raise exception 'transition % -> % is not allowed for a %', v_from, v_to, v_type using errcode = 'check_violation';
  end if;
  return new;
end $$;`);
    this.addSql(`create trigger transaction_transition before update of status, payout_letter on transaction
  for each row execute function transaction_transition_check();`);
  }
}
