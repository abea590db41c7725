/**
 * The hosted Cashier's settings of a frontend (CONTRACT section 9), with the
 * contract's defaults, so that existing frontends keep working unchanged: no
 * framing, no presets, no limits, English, saved cards and closed-loop
 * withdrawals on, no customer cancel. Amounts are in the wire unit, as the
 * merchants file gives them.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration006FrontendSettings extends Migration {
  override name = "006-frontend-settings";

  override up(): void {
    this.addSql(`alter table frontend
  add column allowed_origins jsonb not null default '[]',
  add column deposit_presets jsonb not null default '[]',
  add column limits jsonb not null default '{}',
  add column default_locale text not null default 'en',
  add column save_cards boolean not null default true,
  add column closed_loop_withdrawals boolean not null default true,
  add column player_cancel_withdrawal boolean not null default false;`);
  }
}
