/**
 * A frontend's branding (docs/cashier.md, Branding): the hosted Cashier's
 * display name, colours and corner style as one JSON value the engine checked
 * (branding-spec.ts: WCAG AA pairs, plain-text name); null keeps the Cashier's
 * own look, as every frontend stored before has.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration029FrontendBranding extends Migration {
  override name = "029-frontend-branding";

  override up(): void {
    this.addSql(`alter table frontend add column branding jsonb null;`);
  }
}
