/**
 * The operators' blocks as the Process call reads them: one indexed lookup of
 * the held blocks of a merchant among a sale's or payout's keys
 * (domain/blocks.ts). Implemented on Postgres by store/block-lookup.ts; the
 * console keeps the blocks themselves (engine/console).
 */
import type { BlockKey, HeldBlock } from "../domain/blocks.ts";

/** What the Process call asks before any processor or Validation call. */
export interface BlockList {
  /** The merchant's held blocks whose (kind, value) is one of `keys`; empty for no key. */
  held(merchantId: string, keys: readonly BlockKey[]): Promise<HeldBlock[]>;
}
