/** A signed checkpoint of the audit chain's head, kept apart from audit_log (021). */
import { defineEntity, p } from "@mikro-orm/core";

/** Table audit_checkpoint (021): insert-only, as audit_log; written with each audit row and at each start. */
export const AuditCheckpointEntity = defineEntity({
  name: "AuditCheckpoint",
  tableName: "audit_checkpoint",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    at: p.datetime(),
    /** The chain's last row when the checkpoint was signed (0: an empty chain). */
    rowId: p.bigint("number"),
    rowHash: p.text(),
    /** "row": written with that row; "start": an engine's start. */
    reason: p.text(),
    /** "c1:" and the HMAC-SHA256 of the above under the chain's key (domain/audit-chain.ts). */
    mac: p.text(),
  },
});
