/**
 * Accounts per CONTRACT 11: an account names its connector, apart from its own
 * name, so that a merchant may hold several accounts at one acquirer. The
 * column `processor` stays the account's name (what `processors` and attempts
 * name); `connector` is new, and every existing row is an account of the older
 * form, named after its connector, so it is backfilled with that name.
 *
 * Credentials become a JSON object sealed as one (`credentials_form = 'json'`);
 * rows written before hold one sealed API key (`'api_key'`), which the store
 * reads as `{ "api_key": ... }`. SQL cannot open a seal (the master key is not
 * the database's), so old rows are marked rather than rewritten, and are
 * rewritten as JSON on their next change.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration017ConnectorAccounts extends Migration {
  override name = "017-connector-accounts";

  override up(): void {
    this.addSql("alter table processor_account add column connector text;");
    this.addSql("update processor_account set connector = processor;");
    this.addSql("alter table processor_account alter column connector set not null;");
    this.addSql(`alter table processor_account add column credentials_form text not null default 'api_key'
  constraint processor_account_credentials_form_check check (credentials_form in ('api_key', 'json'));`);
    this.addSql("comment on column processor_account.processor is 'the account''s name (CONTRACT 11), unique per merchant';");
  }
}
