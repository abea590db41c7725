/**
 * TransactionStatus -> the word the interface writes for it (the seed's
 * transaction_status, CONTRACT section 3): one table for every page that
 * shows or posts a status by name (the hosted Cashier's result events, the
 * Backoffice's search, badges and CSV). UNSPECIFIED has no word.
 */
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";

// Every status but UNSPECIFIED must have its word: a new one without it does not compile.
export const STATUS_WORDS: Readonly<Record<number, string>> = {
  [TransactionStatus.PENDING]: "pending",
  [TransactionStatus.APPROVED]: "approved",
  [TransactionStatus.DECLINED_RETRY]: "declined_retry",
  [TransactionStatus.DECLINED]: "declined",
  [TransactionStatus.CANCELLED]: "cancelled",
  [TransactionStatus.PENDING_ASYNC]: "pending_async",
  [TransactionStatus.REQUESTED]: "requested",
} satisfies Record<Exclude<TransactionStatus, TransactionStatus.UNSPECIFIED>, string>;

/** The status's word, or "" for one the table does not name. */
export const statusWord = (status: TransactionStatus): string => STATUS_WORDS[status] ?? "";
