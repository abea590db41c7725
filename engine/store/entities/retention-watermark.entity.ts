/** How far the retention purge has read a table (docs/operations.md, Retention). */
import { defineEntity, p } from "@mikro-orm/core";
import { RETENTION_TABLES } from "./column-values.ts";

/** Table retention_watermark (010): one row per purged table, written by the migration. */
export const RetentionWatermarkEntity = defineEntity({
  name: "RetentionWatermark",
  tableName: "retention_watermark",
  properties: {
    name: p.enum(RETENTION_TABLES).primary(),
    /** Every row with an id up to this one has been looked at. */
    afterId: p.bigint("number").defaultRaw("0"),
  },
});
