/**
 * The follow-up worker's and the hosted page's claims on attempts: what
 * makes each poll, cascade submission and challenge expiry happen once.
 */
import type { Attempt } from "../../shared/transaction.ts";

/** Claims on attempts, for the follow-up worker and the hosted page: each one wins for exactly one caller. */
export interface FollowUpStore {
  /** Attempts whose next check (poll, cascade submit, challenge expiry) is due, claimed for a lease. */
  claimDue(limit: number, leaseMs: number): Promise<number[]>;
  /** Marks due the recent attempts left pending with no check by an engine that died mid-way. */
  sweepStuck(graceSeconds: number): Promise<number>;
  /** The same for attempts in pending (a processor call in flight), on the lookup horizon: their processor is asked by trace_id. */
  sweepForLookup(graceSeconds: number): Promise<number>;
  /** A repeated request tells the platform this attempt's state: flagged and read back under the row's lock. */
  markReplied(traceId: number): Promise<Attempt | undefined>;
  /** Claims an open, unexpired 3-D Secure challenge for `ms`: true for exactly one caller. */
  claimChallenge(traceId: number, ms: number): Promise<boolean>;
  /** Claims a cascade attempt's submission to its processor: true for exactly one caller. */
  claimSubmit(traceId: number, leaseMs: number): Promise<boolean>;
  /** Nothing more to look at on this attempt (no next check). */
  clearCheck(traceId: number): Promise<void>;
}
