/**
 * A customer (a merchant's pin) as the console reads and writes it: its totals,
 * cards, hosted Cashier sessions and e-mails (reads of the payments' and the
 * hosted Cashier's records), operators' notes, and blocks (which the Process
 * call looks up through the payments' own port, ports/blocks.ts there).
 * Implemented on Postgres by store/customer-store.ts.
 */
import type { BlockKind } from "../../payments/index.ts";
import type { TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import type { Tx } from "./transactions.ts";

/** A customer's attempts of one type and status in one currency. */
export interface CustomerTotalRow {
  type: TransactionType;
  status: TransactionStatus;
  currency: string;
  count: number;
  amountMinor: number;
}

/** A card the customer used or saved; its keyed fingerprint stays in the engine. */
export interface CustomerCardRow {
  traceId: number;
  masked: string;
  brand: string;
  expiry: string;
  fingerprint: string;
  saved: boolean;
  /** The closed loop: an approved deposit of this customer from it at this merchant. */
  withdrawalsAllowed: boolean;
}

/** A hosted Cashier session of the customer. */
export interface CustomerSessionRow {
  id: number;
  intent: string;
  frontend: string;
  currency: string;
  autologinUsed: boolean;
  createdAt: Date;
  expiresAt: Date;
}

export interface NoteRecord {
  id: number;
  merchantId: string;
  pin: string;
  text: string;
  createdBy: string;
  createdAt: Date;
}

export interface BlockRecord {
  id: number;
  merchantId: string;
  kind: BlockKind;
  value: string;
  label: string;
  reason: string;
  pin: string;
  createdBy: string;
  createdAt: Date;
  liftedBy: string | null;
  liftedAt: Date | null;
  liftReason: string | null;
}

export type NewBlock = Pick<BlockRecord, "merchantId" | "kind" | "value" | "label" | "reason" | "pin" | "createdBy">;

/** The customer's records and the operators' notes and blocks. */
export interface CustomerRecords {
  totals(merchantId: string, pin: string): Promise<CustomerTotalRow[]>;
  /** The cards of the customer's latest `limit` attempts and its saved cards, latest used first. */
  cards(merchantId: string, pin: string, limit: number): Promise<CustomerCardRow[]>;
  /** The card of one attempt of this customer; undefined when the attempt is not the customer's. */
  cardOf(merchantId: string, pin: string, traceId: number): Promise<CustomerCardRow | undefined>;
  sessions(merchantId: string, pin: string, limit: number): Promise<CustomerSessionRow[]>;
  /** The e-mails (lower-cased) the customer's latest orders gave, most recent first. */
  emails(merchantId: string, pin: string, limit: number): Promise<string[]>;
  notes(merchantId: string, pin: string, limit: number): Promise<NoteRecord[]>;
  addNote(note: Omit<NoteRecord, "id" | "createdAt">, tx: Tx): Promise<NoteRecord>;
  /** Blocks made from the customer's page, held first then lifted (the latest `liftedLimit`). */
  blocksOf(merchantId: string, pin: string, liftedLimit: number): Promise<BlockRecord[]>;
  /** The merchant's held blocks among these (kind, value) pairs. */
  heldAmong(merchantId: string, keys: readonly { kind: BlockKind; value: string }[]): Promise<BlockRecord[]>;
  block(id: number, tx?: Tx): Promise<BlockRecord | undefined>;
  /** Makes the block, or answers the held block of the same value. */
  createBlock(b: NewBlock, tx: Tx): Promise<{ created: BlockRecord } | { heldBy: BlockRecord }>;
  /** Lifts a held block (locked); undefined when none is held under the id. */
  liftBlock(id: number, by: string, reason: string, tx: Tx): Promise<BlockRecord | undefined>;
}
