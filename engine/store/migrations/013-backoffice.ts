/**
 * The Backoffice's tables (docs/backoffice-operations.md): operators with
 * their credentials (an Argon2id password hash, the TOTP secret sealed under
 * the master key, recovery codes as keyed hashes), their passkeys, console
 * sessions and pending sign-ins (keyed hashes of their tokens), per-merchant
 * four-eyes amounts, first approvals of four-eyes payouts, and the audit log:
 * append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and chained by
 * SHA-256 so that a changed row is found by `npm run audit-check`.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration013Backoffice extends Migration {
  override name = "013-backoffice";

  override up(): void {
    this.addSql(`create table operator (
  login text primary key,
  role text not null check (role in ('viewer', 'support', 'payouts', 'admin')),
  merchant_ids jsonb not null default '[]',
  state text not null check (state in ('enrolling', 'active', 'disabled')),
  password_hash text,
  totp_sealed text,
  totp_last_step integer not null default 0,
  recovery_hashes jsonb not null default '[]',
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  enrol_token_hash text unique,
  enrol_expires_at timestamptz,
  last_sign_in_at timestamptz,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);`);
    this.addSql(`create table operator_passkey (
  id text primary key,
  login text not null references operator (login) on delete cascade,
  public_key text not null,
  counter bigint not null,
  transports jsonb not null default '[]',
  name text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);`);
    this.addSql(`create index operator_passkey_login_idx on operator_passkey (login);`);
    this.addSql(`create table console_session (
  token_hash text primary key,
  login text not null references operator (login) on delete cascade,
  kind text not null check (kind in ('pending', 'session')),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  ended_at timestamptz,
  client_address text not null default '',
  challenge text
);`);
    this.addSql(`create index console_session_login_idx on console_session (login);`);
    this.addSql(`create table four_eyes_threshold (
  merchant_id text not null references merchant (id) on delete cascade,
  currency char(3) not null,
  amount bigint not null check (amount >= 0),
  primary key (merchant_id, currency)
);`);
    this.addSql(`create table payout_first_approval (
  trace_id integer primary key references transaction (trace_id) on delete cascade,
  login text not null,
  reason text not null,
  note text not null default '',
  approved_at timestamptz not null default now()
);`);
    this.addSql(`create table audit_log (
  id bigint primary key,
  at timestamptz not null,
  actor text not null,
  action text not null,
  outcome text not null check (outcome in ('success', 'failure')),
  merchant_id text not null default '',
  target text not null default '',
  client_address text not null default '',
  before_json text not null default '',
  after_json text not null default '',
  detail text not null default '',
  prev_hash text not null,
  hash text not null
);`);
    this.addSql(`create index audit_log_at_idx on audit_log (at);`);
    this.addSql(`create function audit_log_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only: % refused', tg_op using errcode = '42501';
end;
$$;`);
    this.addSql(`create trigger audit_log_no_update_delete before update or delete on audit_log
  for each row execute function audit_log_refuse_change();`);
    this.addSql(`create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_refuse_change();`);
  }
}
