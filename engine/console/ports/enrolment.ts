/**
 * Enrolment through the one-time link: the operator a link's token leads to,
 * its password step and its activation, each taken once and only through the
 * link that is current.
 */
import type { OperatorRecord } from "./operators.ts";
import type { Tx } from "./transactions.ts";

/** The enrolling operators' links and first credentials. */
export interface EnrolmentStore {
  /** The enrolling operator whose link's token hashes to `hash`, if still valid at `now` (its row locked when in `tx`). */
  byEnrolment(hash: string, now: Date, tx?: Tx): Promise<OperatorRecord | undefined>;
  /**
   * The enrolment's password step, once, by the link it came through, bound to the browser it came from (the keyed
   * hash of its key): false when the enrolment is past it (its TOTP secret is set), over, or now another link's
   * (reset while the password was being hashed).
   */
  setEnrolmentSecrets(
    login: string,
    enrolTokenHash: string,
    passwordHash: string,
    totpSealed: string,
    browserHash: string,
    now: Date,
    tx: Tx,
  ): Promise<boolean>;
  /**
   * Ends the enrolment, once: false when it is no longer the one whose TOTP
   * secret the code was checked against (another request ended it first, or
   * the link was replaced meanwhile).
   */
  activate(login: string, totpSealed: string, recoveryHashes: string[], totpStep: number, now: Date, tx: Tx): Promise<boolean>;
}
