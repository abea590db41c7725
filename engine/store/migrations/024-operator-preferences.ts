/**
 * What each operator chose for the Backoffice's work views
 * (docs/backoffice.md, Work views): the transaction list's columns and the
 * page size (one row per operator), and saved searches (a name and the
 * search's query string, unique by name per operator). Both go with their
 * operator (on delete cascade); neither holds anything but the operator's own
 * view of the lists.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration024OperatorPreferences extends Migration {
  override name = "024-operator-preferences";

  override up(): void {
    this.addSql(`create table operator_preference (
  login text primary key references operator (login) on delete cascade,
  transaction_columns jsonb not null default '[]',
  page_size int not null default 0 check (page_size = 0 or page_size between 10 and 200),
  updated_at timestamptz not null default now()
);`);
    this.addSql(`create table operator_saved_search (
  id text primary key,
  login text not null references operator (login) on delete cascade,
  name text not null check (length(name) between 1 and 64),
  query text not null check (length(query) <= 2000),
  created_at timestamptz not null default now(),
  unique (login, name)
);`);
  }
}
