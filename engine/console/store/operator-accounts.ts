/**
 * The operators' stores as the one port the Backoffice's use cases are given
 * (`deps.operators`, ports/ports.ts): each record kind keeps its own store
 * (operators, sign-ins, enrolment, console sessions, passkeys), and one
 * transaction joins any of them. Each method is the kind's own, named once here.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { OperatorAccounts } from "../ports/ports.ts";
import { inTransaction } from "./console-db.ts";
import { PgConsoleSessionStore } from "./console-session-store.ts";
import { PgEnrolmentStore } from "./enrolment-store.ts";
import { PgOperatorStore } from "./operator-store.ts";
import { PgPasskeyStore } from "./passkey-store.ts";
import { PgPreferenceStore } from "./preference-store.ts";
import { PgSignInStore } from "./sign-in-store.ts";

/** The operators' records on Postgres, as one port. */
export function pgOperatorAccounts(orm: MikroORM): OperatorAccounts {
  const operators = new PgOperatorStore(orm);
  const signIns = new PgSignInStore(orm);
  const enrolment = new PgEnrolmentStore(orm);
  const sessions = new PgConsoleSessionStore(orm);
  const passkeys = new PgPasskeyStore(orm);
  const preferences = new PgPreferenceStore(orm);
  return {
    transaction: (fn) => inTransaction(orm, fn),
    get: (...a) => operators.get(...a),
    list: (...a) => operators.list(...a),
    create: (...a) => operators.create(...a),
    setRole: (...a) => operators.setRole(...a),
    disable: (...a) => operators.disable(...a),
    reset: (...a) => operators.reset(...a),
    setPending: (...a) => operators.setPending(...a),
    confirmCreate: (...a) => operators.confirmCreate(...a),
    reserveAttempt: (...a) => signIns.reserveAttempt(...a),
    releaseAttempt: (...a) => signIns.releaseAttempt(...a),
    lockWhenSpent: (...a) => signIns.lockWhenSpent(...a),
    recordFailure: (...a) => signIns.recordFailure(...a),
    recordSignIn: (...a) => signIns.recordSignIn(...a),
    useTotpStep: (...a) => signIns.useTotpStep(...a),
    useRecoveryCode: (...a) => signIns.useRecoveryCode(...a),
    changePassword: (...a) => signIns.changePassword(...a),
    byEnrolment: (...a) => enrolment.byEnrolment(...a),
    setEnrolmentSecrets: (...a) => enrolment.setEnrolmentSecrets(...a),
    activate: (...a) => enrolment.activate(...a),
    createSession: (...a) => sessions.createSession(...a),
    session: (...a) => sessions.session(...a),
    touch: (...a) => sessions.touch(...a),
    endSession: (...a) => sessions.endSession(...a),
    endSessions: (...a) => sessions.endSessions(...a),
    setChallenge: (...a) => sessions.setChallenge(...a),
    passkeys: (...a) => passkeys.passkeys(...a),
    addPasskey: (...a) => passkeys.addPasskey(...a),
    usePasskey: (...a) => passkeys.usePasskey(...a),
    deletePasskey: (...a) => passkeys.deletePasskey(...a),
    preferences: (...a) => preferences.preferences(...a),
    setPreferences: (...a) => preferences.setPreferences(...a),
    savedSearches: (...a) => preferences.savedSearches(...a),
    saveSearch: (...a) => preferences.saveSearch(...a),
    deleteSavedSearch: (...a) => preferences.deleteSavedSearch(...a),
  };
}
