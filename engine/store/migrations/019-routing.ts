/**
 * Routing rules and the acquirer's own 3-D Secure page (issue 30, points 5 and 6).
 *
 * - `merchant.routing_rules`: the merchant's rules (CONTRACT 11) as the domain reads them (domain/routing.ts's
 *   RoutingRule list), checked by app/routing-spec.ts before they are written; `[]`: no rules, `processors` routes.
 * - `payment_order.routing_cascade`, `routing_rule_index`, `routing_rule`: the cascade a rule picked for the order
 *   when its first attempt was made, the rule's place in the list (0-based) and its label as the detail shows it.
 *   The cascade's later attempts follow the stored cascade, not the rules as they read now (an operator may have
 *   changed them since). All null: no rule held, and the merchant's `processors` are the cascade, as before.
 * - `transaction.acquirer_redirect_url`: a real acquirer's own challenge page, where Cashier's challenge page (the
 *   attempt's redirect_url) sends the customer on. Null for the simulators, whose page is Cashier's own.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration019Routing extends Migration {
  override name = "019-routing";

  override up(): void {
    this.addSql(`alter table merchant add column routing_rules jsonb not null default '[]'`);
    this.addSql(`alter table payment_order add column routing_cascade jsonb null,
  add column routing_rule_index integer null,
  add column routing_rule text null`);
    this.addSql(`alter table transaction add column acquirer_redirect_url text null`);
  }
}
