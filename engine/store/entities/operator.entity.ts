/** A Backoffice operator and its credentials; none of them ever leaves the engine. */
import { defineEntity, p } from "@mikro-orm/core";

/** Table operator (013). */
export const OperatorEntity = defineEntity({
  name: "Operator",
  tableName: "operator",
  properties: {
    login: p.text().primary(),
    role: p.text(),
    /** The merchants in scope; empty: all. */
    merchantIds: p.json<string[]>().defaultRaw(`'[]'`),
    state: p.text(),
    /** Argon2id (PHC string). */
    passwordHash: p.text().nullable(),
    /** The TOTP secret (base32), sealed with the master key. */
    totpSealed: p.text().nullable(),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: p.integer().default(0),
    /** Keyed hashes of the unused recovery codes. */
    recoveryHashes: p.json<string[]>().defaultRaw(`'[]'`),
    failedAttempts: p.integer().default(0),
    lockedUntil: p.datetime().nullable(),
    enrolTokenHash: p.text().nullable().unique(),
    enrolExpiresAt: p.datetime().nullable(),
    lastSignInAt: p.datetime().nullable(),
    createdBy: p.text(),
    /** Who created the operator or last reset it (and so saw its enrolment link), 015: four eyes counts them as one. */
    accessIssuedBy: p.text().default(""),
    /** A change waiting for a second admin's confirmation (023): create, update or reset, with its role and scope. */
    pendingKind: p.text().nullable(),
    pendingRole: p.text().nullable(),
    pendingMerchantIds: p.json<string[]>().nullable(),
    /** A pending reset's new enrolment link, as a keyed hash: it works once the reset is confirmed. */
    pendingEnrolHash: p.text().nullable().unique(),
    pendingBy: p.text().nullable(),
    pendingAt: p.datetime().nullable(),
    /** The keyed hash of the browser key that set the enrolment's password (023): the TOTP step is that browser's. */
    enrolBrowserHash: p.text().nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
    updatedAt: p.datetime().defaultRaw("now()"),
  },
});
