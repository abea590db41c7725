/**
 * Fair callback delivery: the claim reads, per merchant, its first due
 * callbacks and how many it has in flight (claimed, lease running). One index
 * serves both, so a merchant with thousands of callbacks waiting costs the
 * claim a seek, not a scan.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration005FairDelivery extends Migration {
  override name = "005-fair-delivery";

  override up(): void {
    this.addSql(`create index callback_merchant_due_idx on callback (merchant_id, next_attempt_at) where state = 'pending';`);
  }
}
