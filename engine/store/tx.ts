/**
 * The engine's own name for an open database transaction. Ports and use cases
 * pass a `Tx` from one store to another (a change and its audit row commit
 * together) without naming the ORM: it is opaque outside the stores, which
 * alone turn it back into MikroORM's EntityManager. A brand on a type, erased
 * when the code runs: `txOf` and `emOf` return what they are given.
 */
import type { EntityManager } from "@mikro-orm/postgresql";

declare const txBrand: unique symbol;

/** An open database transaction, as a port or a use case holds it: nothing to call, only to pass on. */
export type Tx = { readonly [txBrand]: "Tx" };

/** A store's transaction, as it hands it to a use case (`fn(txOf(em))`). */
export const txOf = (em: EntityManager): Tx => em as unknown as Tx;

/** A transaction a use case handed back, as the store that joins it writes in it. */
export const emOf = (tx: Tx): EntityManager => tx as unknown as EntityManager;
