/**
 * Backoffice operators as records (013): who they are, their role and scope,
 * their state and what their credentials' checks keep. Created, changed,
 * disabled and reset by the command line, AdminService and admins; each change
 * takes the caller's transaction, where its audit row is written too.
 */
import type { Role } from "../domain/operator-roles.ts";
import type { Tx } from "./transactions.ts";

/**
 * Proposed (created with payout rights by one admin, waiting for a second's confirmation: no link works, no sign-in),
 * enrolling (a link is out), active (may sign in) or disabled (may not, and has no link).
 */
export type OperatorState = "proposed" | "enrolling" | "active" | "disabled";

/** A change of an operator waiting for a second admin's confirmation (dual control, app/dual-control.ts). */
export interface PendingChange {
  kind: "create" | "update" | "reset";
  role: Role;
  merchantIds: string[];
  /** A reset's new link (keyed hash): it replaces the operator's credentials once confirmed. */
  enrolHash: string | null;
  proposedBy: string;
  proposedAt: Date;
}

/** An operator as the use cases read it; the credentials only as hashes and a sealed secret. */
export interface OperatorRecord {
  login: string;
  role: Role;
  merchantIds: string[];
  state: OperatorState;
  passwordHash: string | null;
  totpSealed: string | null;
  totpLastStep: number;
  recoveryHashes: string[];
  failedAttempts: number;
  lockedUntil: Date | null;
  enrolExpiresAt: Date | null;
  lastSignInAt: Date | null;
  createdBy: string;
  /** Who created the operator or last reset it: the one who saw its current enrolment link. */
  accessIssuedBy: string;
  /** A change proposed by one admin, waiting for another's confirmation; null when none. */
  pending: PendingChange | null;
  /** The keyed hash of the browser key that set the enrolment's password; null before. */
  enrolBrowserHash: string | null;
  createdAt: Date;
  updatedAt: Date;
  passkeyCount: number;
}

/** A new operator: enrolling (or proposed, waiting for a second admin), with the keyed hash of its enrolment link's token. */
export interface NewOperator {
  login: string;
  role: Role;
  merchantIds: string[];
  createdBy: string;
  enrolHash: string;
  enrolExpiresAt: Date;
  now: Date;
  /** Created as a proposal: state proposed, its creation pending until another admin confirms it. */
  proposed?: boolean;
}

/** The operators themselves. Times of day come from the caller (the app clock). */
export interface OperatorStore {
  /** One operator; `lock` takes its row's lock in `tx` until the commit. */
  get(login: string, tx?: Tx, lock?: boolean): Promise<OperatorRecord | undefined>;
  /** Every operator (or those in `state`), by login. */
  list(state?: OperatorState): Promise<OperatorRecord[]>;
  /** False when the login is taken. */
  create(op: NewOperator, tx: Tx): Promise<boolean>;
  /** Another role and scope: the operator's four-eyes first approvals no longer count. */
  setRole(login: string, role: Role, merchantIds: string[], now: Date, tx: Tx): Promise<void>;
  /** Disabled: no sign-in, no enrolment link, every session ended, its first approvals void. */
  disable(login: string, now: Date, tx: Tx): Promise<void>;
  /** Every credential cleared (passkeys too), enrolling again with a new link; sessions ended, first approvals void. */
  reset(login: string, issuedBy: string, enrolHash: string, enrolExpiresAt: Date, now: Date, tx: Tx): Promise<void>;
  /** Records (or replaces) the change waiting for a second admin; null clears it. */
  setPending(login: string, pending: PendingChange | null, now: Date, tx: Tx): Promise<void>;
  /** A proposed operator's creation confirmed: enrolling, its link (made at the proposal) working until `enrolExpiresAt`. */
  confirmCreate(login: string, issuedBy: string, enrolExpiresAt: Date, now: Date, tx: Tx): Promise<void>;
}
