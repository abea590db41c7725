/**
 * One database transaction for a change and its audit row: a console use case
 * opens it through this port and hands its `Tx` to every store that writes in
 * it, so both commit or neither. `Tx` is the engine's own type
 * (engine/store/tx.ts): the use cases name no ORM.
 */
import type { Tx } from "../../store/tx.ts";

export type { Tx };

/** Opens one database transaction around `fn`: it commits when `fn` resolves and rolls back when it throws. */
export interface Transactions {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}
