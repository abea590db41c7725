/**
 * The hosted Cashier (CONTRACT section 9): a customer's session, its saved
 * cards, and which orders were made in it and by whom.
 * - hosted_session: the platform's signed session start, as validated. Its
 *   tokens are never stored: the autologin and auth_token are derived from
 *   `nonce` with keys of the master key (so a repeat of the start answers the
 *   same ones), and only keyed hashes of the autologin token and of the
 *   browser session's token are kept, for lookups. `idempotency_key` makes a
 *   repeat a repeat, also when repeats arrive together.
 * - saved_card: a card the customer kept; its number only sealed, erased with
 *   the row. A card asked to be kept on a deposit still in flight waits for
 *   that deposit's approval (`order_ref`) and is erased with the status change
 *   that ends the deposit otherwise.
 * - payment_order gains who made it (`created_by`: api, customer) and, for an
 *   order made in a session, the session and its SCOrderID/Udef1/Udef2, which
 *   RecordFailedDeposit echoes.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration009HostedCashier extends Migration {
  override name = "009-hosted-cashier";

  override up(): void {
    this.addSql(`create table hosted_session (
  id bigserial primary key,
  merchant_id text not null references merchant (id),
  intent text not null check (intent in ('deposit', 'withdrawal')),
  idempotency_key text not null,
  fingerprint text not null,
  nonce text not null,
  autologin_hash text not null,
  autologin_used_at timestamptz null,
  session_hash text null,
  frontend text not null,
  currency char(3) not null,
  amount_minor bigint null check (amount_minor > 0),
  balance_minor bigint null check (balance_minor >= 0),
  pin text not null,
  customer jsonb not null,
  locale text not null default '',
  return_url text not null,
  notification_url text null,
  order_id text null,
  sc_order_id text null,
  udef1 text null,
  udef2 text null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  constraint hosted_session_idempotency_unique unique (merchant_id, idempotency_key),
  constraint hosted_session_autologin_unique unique (autologin_hash),
  constraint hosted_session_session_unique unique (session_hash)
);`);
    this.addSql(`create table saved_card (
  id text primary key,
  merchant_id text not null references merchant (id),
  pin text not null,
  card_masked text not null,
  card_brand text not null,
  card_expiry text not null,
  card_fingerprint text not null,
  card_sealed text not null,
  holder text not null default '',
  order_ref bigint null references payment_order (id),
  created_at timestamptz not null default now(),
  constraint saved_card_customer_card_unique unique (merchant_id, pin, card_fingerprint)
);`);
    // A status change erases a card kept for a deposit that ended unapproved: found by its order.
    this.addSql(`create index saved_card_order_idx on saved_card (order_ref) where order_ref is not null;`);
    this.addSql(`alter table payment_order
  add column created_by text not null default 'api',
  add column session_ref bigint null references hosted_session (id),
  add column sc_order_id text null,
  add column udef1 text null,
  add column udef2 text null;`);
    this.addSql(`create index payment_order_session_idx on payment_order (session_ref) where session_ref is not null;`);
    // The closed-loop rule and the pending-withdrawal list look orders up by customer.
    this.addSql(`create index payment_order_customer_idx on payment_order (merchant_id, pin, type);`);
  }
}
