/**
 * Operators' passkeys (013): the WebAuthn credentials' public keys and
 * signature counters, added and deleted in the caller's transaction with
 * their audit rows.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { PasskeyRecord, PasskeyStore } from "../ports/passkeys.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";

export class PgPasskeyStore implements PasskeyStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async passkeys(login: string, tx?: Tx): Promise<PasskeyRecord[]> {
    const rows = await consoleDb(this.#orm, tx).selectFrom("operator_passkey").selectAll().where("login", "=", login).orderBy("created_at").execute();
    return rows.map((r) => ({
      id: r.id,
      login: r.login,
      publicKey: r.public_key,
      counter: r.counter,
      transports: r.transports,
      name: r.name,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at ?? null,
    }));
  }

  async addPasskey(p: Omit<PasskeyRecord, "lastUsedAt">, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .insertInto("operator_passkey")
      .values({
        id: p.id,
        login: p.login,
        public_key: p.publicKey,
        counter: p.counter,
        transports: p.transports,
        name: p.name,
        created_at: p.createdAt,
      })
      .execute();
  }

  async usePasskey(id: string, counter: number, now: Date, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx).updateTable("operator_passkey").set({ counter, last_used_at: now }).where("id", "=", id).execute();
  }

  async deletePasskey(login: string, id: string, tx: Tx): Promise<boolean> {
    const rows = await consoleDb(this.#orm, tx).deleteFrom("operator_passkey").where("login", "=", login).where("id", "=", id).returning("id").execute();
    return rows.length === 1;
  }
}
