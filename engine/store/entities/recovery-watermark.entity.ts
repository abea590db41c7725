/** How far the sweep for attempts left behind by a dead engine has looked (created_at). */
import { defineEntity, p } from "@mikro-orm/core";

/** Table recovery_watermark (004, 005): id 1 the recovery sweep's, id 2 the lookup sweep's, written by the migrations. */
export const RecoveryWatermarkEntity = defineEntity({
  name: "RecoveryWatermark",
  tableName: "recovery_watermark",
  properties: {
    id: p.smallint().primary().autoincrement(false),
    scannedTo: p.datetime(),
  },
});
