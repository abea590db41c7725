/**
 * Hosted payment fields and card tokens (CONTRACT 12, docs/integration.md,
 * Hosted payment fields):
 * - hosted_session may be a `fields` session: a card form only, no customer
 *   beyond its pin, no return_url (stored empty);
 * - card_token: one per card taken by a fields page. The token itself is
 *   never stored, only its keyed hash. The card number is sealed (AES-256-GCM
 *   under CASHIER_MASTER_KEY, bound to the token's hash) as a saved card's is,
 *   and kept until the token expires, so that a platform's repeat of the
 *   Process request that used it is answered as a repeat; the CVV is sealed
 *   the same way and erased by the statement that uses the token. The
 *   retention sweep deletes a row once its token has expired (its sealed
 *   number and any unused CVV with it). `used_order_id` is the order the token
 *   was used for: one use, also when two uses come at the same moment.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration028CardTokens extends Migration {
  override name = "028-card-tokens";

  override up(): void {
    this.addSql(`alter table hosted_session drop constraint hosted_session_intent_check;`);
    this.addSql(`alter table hosted_session add constraint hosted_session_intent_check check (intent in ('deposit', 'withdrawal', 'fields'));`);
    this.addSql(`create table card_token (
  id bigserial primary key,
  token_hash text not null,
  merchant_id text not null references merchant (id),
  frontend text not null,
  pin text not null,
  card_masked text not null,
  card_brand text not null,
  card_expiry text not null,
  card_fingerprint text not null,
  card_sealed text not null,
  cvv_sealed text null,
  holder text not null default '',
  expires_at timestamptz not null,
  used_at timestamptz null,
  used_order_id text null,
  created_at timestamptz not null default now(),
  constraint card_token_hash_unique unique (token_hash),
  constraint card_token_cvv_until_use check (used_at is null or cvv_sealed is null)
);`);
    // The retention sweep finds expired tokens by their end.
    this.addSql(`create index card_token_expires_idx on card_token (expires_at);`);
  }
}
