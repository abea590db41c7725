/**
 * The lookup sweep's watermark (decision 0007): a second row of
 * recovery_watermark, so that attempts left pending by a dead engine are
 * looked up at their processor after recovery.lookupAfterMs (35 s) instead of
 * the recovery sweep's two minutes, each sweep reading every new row once.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration007LookupSweep extends Migration {
  override name = "007-lookup-sweep";

  override up(): void {
    this.addSql("alter table recovery_watermark drop constraint recovery_watermark_id_check;");
    this.addSql("alter table recovery_watermark add constraint recovery_watermark_id_check check (id in (1, 2));");
    this.addSql("insert into recovery_watermark (id, scanned_to) values (2, now());");
  }
}
