/** One row of the append-only, hash-chained audit log. */
import { defineEntity, p } from "@mikro-orm/core";

/** Table audit_log (013): the database refuses UPDATE, DELETE and TRUNCATE. */
export const AuditLogEntity = defineEntity({
  name: "AuditLog",
  tableName: "audit_log",
  properties: {
    /** Gapless, in chain order (written under an advisory lock). */
    id: p.bigint("number").primary().autoincrement(false),
    at: p.datetime(),
    actor: p.text(),
    action: p.text(),
    outcome: p.text(),
    merchantId: p.text().default(""),
    target: p.text().default(""),
    clientAddress: p.text().default(""),
    beforeJson: p.text().default(""),
    afterJson: p.text().default(""),
    detail: p.text().default(""),
    prevHash: p.text(),
    hash: p.text(),
  },
});
