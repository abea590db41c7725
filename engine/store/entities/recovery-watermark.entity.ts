/** How far the sweep for attempts left behind by a dead engine has looked (created_at). */
import { defineEntity, p } from "@mikro-orm/core";

/** Table recovery_watermark (004): a single row, id 1, written by the migration. */
export const RecoveryWatermarkEntity = defineEntity({
  name: "RecoveryWatermark",
  tableName: "recovery_watermark",
  properties: {
    id: p.smallint().primary().autoincrement(false),
    scannedTo: p.datetime(),
  },
});
