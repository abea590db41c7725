/**
 * Who set up each operator's current access (docs/backoffice-operations.md,
 * Four eyes): the actor that created the operator or last reset it, and so
 * saw its enrolment link. A four-eyes payout's two approvals must not come
 * from two accounts one of which the other set up. Existing operators take
 * their creator, the only issuer known for them.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration015AccessIssuer extends Migration {
  override name = "015-access-issuer";

  override up(): void {
    this.addSql(`alter table operator add column access_issued_by text;`);
    this.addSql(`update operator set access_issued_by = created_by;`);
    this.addSql(`alter table operator alter column access_issued_by set not null;`);
  }
}
