/**
 * An operator's passkeys (WebAuthn credentials): the public key and the
 * signature counter the engine checks an assertion against.
 */
import type { Tx } from "./transactions.ts";

/** A passkey as stored: never a secret, the public key only. */
export interface PasskeyRecord {
  id: string;
  login: string;
  /** base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The operators' passkeys. */
export interface PasskeyStore {
  /** The operator's passkeys, oldest first. */
  passkeys(login: string, tx?: Tx): Promise<PasskeyRecord[]>;
  addPasskey(p: Omit<PasskeyRecord, "lastUsedAt">, tx: Tx): Promise<void>;
  /** An assertion was verified: its counter is kept, and when. */
  usePasskey(id: string, counter: number, now: Date, tx: Tx): Promise<void>;
  /** False when the operator has no passkey of that id. */
  deletePasskey(login: string, id: string, tx: Tx): Promise<boolean>;
}
