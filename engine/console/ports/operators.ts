/**
 * Backoffice operators as records (013): who they are, their role and scope,
 * their state and what their credentials' checks keep. Created, changed,
 * disabled and reset by the command line, AdminService and admins; each change
 * takes the caller's transaction, where its audit row is written too.
 */
import type { Role } from "../domain/operator-roles.ts";
import type { Tx } from "./transactions.ts";

/** Enrolling (a link is out), active (may sign in) or disabled (may not, and has no link). */
export type OperatorState = "enrolling" | "active" | "disabled";

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
  createdAt: Date;
  updatedAt: Date;
  passkeyCount: number;
}

/** A new operator: enrolling, with the keyed hash of its enrolment link's token. */
export interface NewOperator {
  login: string;
  role: Role;
  merchantIds: string[];
  createdBy: string;
  enrolHash: string;
  enrolExpiresAt: Date;
  now: Date;
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
}
