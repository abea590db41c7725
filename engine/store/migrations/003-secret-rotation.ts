/**
 * Secret rotation: the previous secret stays valid for incoming requests until
 * previous_secret_expires_at, so platforms can switch without a gap. It is
 * sealed like the current one.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration003SecretRotation extends Migration {
  override name = "003-secret-rotation";

  override up(): void {
    this.addSql(`alter table merchant
  add column previous_secret_sealed text null,
  add column previous_secret_expires_at timestamptz null;`);
  }
}
