/**
 * Risk rules (issue 32, point 4; docs/backoffice-operations.md, Risk rules):
 *
 * - `risk_rule`: a merchant's rule as an admin saved it in the console: its kind (velocity, country_mismatch,
 *   deposit_limit), its name, and its parameters as the console's fields (`params`, checked by
 *   payments/domain/risk-rule-input.ts at save and again at load), who made and last changed it. A deleted rule is
 *   deleted (its audit row keeps it); a refusal's history names it by id and name, so its detail still reads.
 * - Two indexes for the Process call's one counts query over the merchant's recent orders: by card fingerprint and
 *   by the customer's IP address, each after the merchant and before created_at (the pin and the e-mail have theirs
 *   since 009 and 011), so a velocity rule's window is a short walk. They cost each new order two index entries
 *   (docs/backoffice-operations.md, Risk rules).
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration030RiskRules extends Migration {
  override name = "030-risk-rules";

  override up(): void {
    this.addSql(`create table risk_rule (
  id bigserial primary key,
  merchant_id text not null references merchant (id) on delete cascade,
  kind text not null check (kind in ('velocity', 'country_mismatch', 'deposit_limit')),
  name text not null check (length(name) between 1 and 80),
  params jsonb not null,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_by text not null,
  updated_at timestamptz not null default now()
);`);
    this.addSql(`create index risk_rule_merchant_idx on risk_rule (merchant_id, id);`);
    this.addSql(`create index payment_order_card_created_idx on payment_order (merchant_id, card_fingerprint, created_at desc);`);
    this.addSql(`create index payment_order_ip_created_idx on payment_order (merchant_id, (customer ->> 'requester_ip'), created_at desc);`);
  }
}
