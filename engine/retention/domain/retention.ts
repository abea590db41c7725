/**
 * What one step of the retention purge deletes, decided from the rows it read
 * (docs/operations.md, Retention). Pure: the store reads a batch of ids after
 * its watermark, this plans, the store deletes and moves the watermark.
 *
 * Ids follow creation, so a table's ages grow with its ids: the plan stops at
 * the first row still within the retention period, since everything after it
 * is younger. Before that point it deletes the settled rows and passes over
 * the unsettled ones (a callback still being delivered, the history of a
 * transaction that is not final), which are kept for good: one stuck row must
 * never hold the purge up, and none is deleted while it may still change.
 */

/** A row as the purge read it, in id order. */
export interface RetentionRow {
  id: number;
  /** Past the retention age. */
  old: boolean;
  /** Will never change again (a callback delivered, refused or failed; an event of a final transaction). */
  settled: boolean;
}

export interface RetentionPlan {
  /** Ids to delete. */
  doomed: number[];
  /** The new watermark: every id up to it has been decided; null leaves it where it is. */
  watermark: number | null;
}

export function planPurge(rows: readonly RetentionRow[]): RetentionPlan {
  const doomed: number[] = [];
  let watermark: number | null = null;
  for (const row of rows) {
    if (!row.old) break;
    if (row.settled) doomed.push(row.id);
    watermark = row.id;
  }
  return { doomed, watermark };
}
