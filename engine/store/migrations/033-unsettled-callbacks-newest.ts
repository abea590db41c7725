/**
 * The failing deliveries of all merchants, newest first, as a walk that stops at the page (issue 34, point 7;
 * docs/decisions/0012-search-indexes.md): `callback_unsettled_idx` (011) is the merchant's, (merchant_id, id desc),
 * so a listing of every merchant's failed, refused or much-retried callbacks read all of that partial index and
 * sorted it: 76 ms at 5 million orders, growing with the callbacks never delivered. This one holds the same rows
 * (those not delivered: a small share, the in-flight and the failing) by id alone. A callback enters it when
 * written, as the merchant's does, and leaves it when delivered.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration033UnsettledCallbacksNewest extends Migration {
  override name = "033-unsettled-callbacks-newest";

  override up(): void {
    this.addSql(`create index callback_unsettled_newest_idx on callback (id desc) where state <> 'delivered';`);
  }
}
