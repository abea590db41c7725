/**
 * Console sessions and pending sign-ins, kept by the keyed hash of their
 * token: made, read, moved on by each call, and ended.
 */
import type { Tx } from "./transactions.ts";

/** A session (signed in) or a pending sign-in (password checked, second factor awaited). */
export interface ConsoleSessionRecord {
  tokenHash: string;
  login: string;
  kind: "pending" | "session";
  expiresAt: Date;
  endedAt: Date | null;
  /** A passkey ceremony's challenge, used once. */
  challenge: string | null;
}

/** A session or pending sign-in to make. */
export interface NewConsoleSession {
  tokenHash: string;
  login: string;
  kind: "pending" | "session";
  expiresAt: Date;
  now: Date;
  clientAddress: string;
  challenge?: string;
}

/** The console's sessions. Times of day come from the caller (the app clock). */
export interface ConsoleSessionStore {
  createSession(s: NewConsoleSession, tx?: Tx): Promise<void>;
  /** One session by its token's hash; `lock` takes its row's lock in `tx`. */
  session(tokenHash: string, tx?: Tx, lock?: boolean): Promise<ConsoleSessionRecord | undefined>;
  /** Moves a live session's idle end; false when it had ended, was idle past its end at `now`, or began at or before `bornAfter`. */
  touch(tokenHash: string, now: Date, idleEnd: Date, bornAfter: Date): Promise<boolean>;
  endSession(tokenHash: string, now: Date, tx?: Tx): Promise<void>;
  /** Ends every session and pending sign-in of the operator. */
  endSessions(login: string, now: Date, tx?: Tx): Promise<void>;
  /** Keeps (or clears, with null) the challenge of a passkey ceremony. */
  setChallenge(tokenHash: string, challenge: string | null, tx?: Tx): Promise<void>;
}
