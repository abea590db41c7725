/**
 * Dual control of payout rights and the enrolment link's browser
 * (docs/backoffice-operations.md, Dual control; Enrolment):
 * - an operator may be `proposed`: created with the payouts or admin role by
 *   one admin, inert (no enrolment, no sign-in) until a second admin confirms;
 * - a change waiting for that confirmation (a proposed creation, a role or
 *   scope granting payout rights, a reset of an operator holding them) is
 *   kept on the operator's row: what it is, its role and scope, the new
 *   enrolment link's keyed hash for a reset, who proposed it and when;
 * - the keyed hash of the browser key that set an enrolment's password: the
 *   TOTP secret and the session go only to that browser.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration023OperatorDualControl extends Migration {
  override name = "023-operator-dual-control";

  override up(): void {
    this.addSql(`alter table operator drop constraint operator_state_check;`);
    this.addSql(`alter table operator add constraint operator_state_check check (state in ('proposed', 'enrolling', 'active', 'disabled'));`);
    this.addSql(`alter table operator
  add column pending_kind text check (pending_kind in ('create', 'update', 'reset')),
  add column pending_role text check (pending_role in ('viewer', 'support', 'payouts', 'admin')),
  add column pending_merchant_ids jsonb,
  add column pending_enrol_hash text unique,
  add column pending_by text,
  add column pending_at timestamptz,
  add column enrol_browser_hash text;`);
  }
}
