/** A console session or a pending sign-in (password given, second factor due), by the keyed hash of its token. */
import { defineEntity, p } from "@mikro-orm/core";
import { OperatorEntity } from "./operator.entity.ts";

/** Table console_session (013). */
export const ConsoleSessionEntity = defineEntity({
  name: "ConsoleSession",
  tableName: "console_session",
  properties: {
    tokenHash: p.text().primary(),
    operator: () => p.manyToOne(OperatorEntity).fieldName("login").deleteRule("cascade"),
    /** pending (second factor due) or session. */
    kind: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
    lastSeenAt: p.datetime().defaultRaw("now()"),
    /** A pending sign-in's end, or a session's idle end (moved by every call). */
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    clientAddress: p.text().default(""),
    /** The WebAuthn challenge issued to this session or sign-in, until used. */
    challenge: p.text().nullable(),
  },
});
