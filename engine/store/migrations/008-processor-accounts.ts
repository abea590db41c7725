/**
 * A merchant's account at a processor (decision 0007): where the connector
 * reaches it, its credentials sealed under the master key like the merchant's
 * secret, and the connector's settings. A processor without an account for a
 * merchant uses the engine's own (the local acquirer simulator for sim-a, sim-b).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration008ProcessorAccounts extends Migration {
  override name = "008-processor-accounts";

  override up(): void {
    this.addSql(`create table processor_account (
  id serial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  processor text not null,
  enabled boolean not null default true,
  endpoint_url text not null,
  credentials_sealed text not null,
  settings jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint processor_account_merchant_processor_unique unique (merchant_id, processor)
);`);
  }
}
