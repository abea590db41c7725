/**
 * Console sessions and pending sign-ins (013), kept by the keyed hash of
 * their token. Times of day come from the caller (the app clock), so a test
 * of the idle end moves time instead of sleeping.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { ConsoleSessionRecord, ConsoleSessionStore, NewConsoleSession } from "../ports/console-sessions.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";
import { endSessionsOf } from "./operator-rows.ts";

export class PgConsoleSessionStore implements ConsoleSessionStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async createSession(s: NewConsoleSession, tx?: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .insertInto("console_session")
      .values({
        token_hash: s.tokenHash,
        login: s.login,
        kind: s.kind,
        created_at: s.now,
        last_seen_at: s.now,
        expires_at: s.expiresAt,
        client_address: s.clientAddress,
        challenge: s.challenge ?? null,
      })
      .execute();
  }

  async session(tokenHash: string, tx?: Tx, lock = false): Promise<ConsoleSessionRecord | undefined> {
    let q = consoleDb(this.#orm, tx).selectFrom("console_session").selectAll().where("token_hash", "=", tokenHash);
    if (lock) q = q.forUpdate();
    const r = await q.executeTakeFirst();
    if (!r) return undefined;
    return {
      tokenHash: r.token_hash,
      login: r.login,
      kind: r.kind === "pending" ? "pending" : "session",
      expiresAt: r.expires_at,
      endedAt: r.ended_at ?? null,
      challenge: r.challenge ?? null,
    };
  }

  /** Moves a live session's idle end; false when it had ended, was idle past its end at `now`, or began at or before `bornAfter`. */
  async touch(tokenHash: string, now: Date, idleEnd: Date, bornAfter: Date): Promise<boolean> {
    const rows = await consoleDb(this.#orm)
      .updateTable("console_session")
      .set({ last_seen_at: now, expires_at: idleEnd })
      .where("token_hash", "=", tokenHash)
      .where("kind", "=", "session")
      .where("ended_at", "is", null)
      .where("expires_at", ">", now)
      .where("created_at", ">", bornAfter)
      .returning("token_hash")
      .execute();
    return rows.length === 1;
  }

  async endSession(tokenHash: string, now: Date, tx?: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .updateTable("console_session")
      .set({ ended_at: now })
      .where("token_hash", "=", tokenHash)
      .where("ended_at", "is", null)
      .execute();
  }

  async endSessions(login: string, now: Date, tx?: Tx): Promise<void> {
    await endSessionsOf(consoleDb(this.#orm, tx), login, now);
  }

  async setChallenge(tokenHash: string, challenge: string | null, tx?: Tx): Promise<void> {
    await consoleDb(this.#orm, tx).updateTable("console_session").set({ challenge }).where("token_hash", "=", tokenHash).execute();
  }
}
