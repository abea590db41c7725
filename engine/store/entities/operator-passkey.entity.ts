/** A WebAuthn credential of an operator: its public key and signature counter. */
import { defineEntity, p } from "@mikro-orm/core";
import { OperatorEntity } from "./operator.entity.ts";

/** Table operator_passkey (013). */
export const OperatorPasskeyEntity = defineEntity({
  name: "OperatorPasskey",
  tableName: "operator_passkey",
  properties: {
    /** The credential id, base64url. */
    id: p.text().primary(),
    operator: () => p.manyToOne(OperatorEntity).fieldName("login").deleteRule("cascade"),
    /** The COSE public key, base64url. */
    publicKey: p.text(),
    counter: p.bigint("number"),
    transports: p.json<string[]>().defaultRaw(`'[]'`),
    name: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
    lastUsedAt: p.datetime().nullable(),
  },
});
