/**
 * Operators' work-view preferences and saved searches (024), read and written
 * by the operator's login only, in the caller's transaction with their audit
 * rows.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { PreferenceStore, SavedSearchRecord, WorkPreferences } from "../ports/preferences.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";

export class PgPreferenceStore implements PreferenceStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async preferences(login: string, tx?: Tx): Promise<WorkPreferences> {
    const row = await consoleDb(this.#orm, tx).selectFrom("operator_preference").selectAll().where("login", "=", login).executeTakeFirst();
    return { transactionColumns: row?.transaction_columns ?? [], pageSize: row?.page_size ?? 0 };
  }

  async setPreferences(login: string, p: WorkPreferences, now: Date, tx: Tx): Promise<void> {
    const values = { transaction_columns: p.transactionColumns, page_size: p.pageSize, updated_at: now };
    await consoleDb(this.#orm, tx)
      .insertInto("operator_preference")
      .values({ login, ...values })
      .onConflict((oc) => oc.column("login").doUpdateSet(values))
      .execute();
  }

  async savedSearches(login: string, tx?: Tx): Promise<SavedSearchRecord[]> {
    const rows = await consoleDb(this.#orm, tx).selectFrom("operator_saved_search").selectAll().where("login", "=", login).orderBy("name").execute();
    return rows.map((r) => ({ id: r.id, name: r.name, query: r.query, createdAt: r.created_at }));
  }

  async saveSearch(login: string, s: SavedSearchRecord, tx: Tx): Promise<SavedSearchRecord> {
    const row = await consoleDb(this.#orm, tx)
      .insertInto("operator_saved_search")
      .values({ id: s.id, login, name: s.name, query: s.query, created_at: s.createdAt })
      .onConflict((oc) => oc.columns(["login", "name"]).doUpdateSet({ query: s.query }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: row.id, name: row.name, query: row.query, createdAt: row.created_at };
  }

  async deleteSavedSearch(login: string, id: string, tx: Tx): Promise<SavedSearchRecord | undefined> {
    const row = await consoleDb(this.#orm, tx)
      .deleteFrom("operator_saved_search")
      .where("login", "=", login)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, query: row.query, createdAt: row.created_at } : undefined;
  }
}
