/**
 * Who set up each operator's current access (docs/backoffice-operations.md,
 * Four eyes): the actor that created the operator or last reset it, and so
 * saw its enrolment link. A four-eyes payout's two approvals must not come
 * from two accounts one of which the other set up. Existing operators take
 * whoever last reset them, as the audit log records it, or else their
 * creator. The column defaults to '' (no issuer known), so that an engine of
 * the version before, still running during an upgrade, can create operators.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration015AccessIssuer extends Migration {
  override name = "015-access-issuer";

  override up(): void {
    this.addSql(`alter table operator add column access_issued_by text not null default '';`);
    this.addSql(`update operator set access_issued_by = created_by;`);
    this.addSql(`update operator o set access_issued_by = r.actor
  from (select distinct on (target) target, actor from audit_log
         where action = 'operator.reset' and outcome = 'success' order by target, id desc) r
 where r.target = 'operator:' || o.login;`);
  }
}
