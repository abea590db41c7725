/**
 * The audit log's store: rows are appended under a transaction-scoped
 * advisory lock, so ids are gapless and each row is chained to the one
 * written just before it (domain/audit-chain.ts); the table's triggers refuse
 * any UPDATE, DELETE or TRUNCATE. Appends join the caller's transaction when
 * given one (`tx`), so an action and its audit row commit together. The lock
 * is held until that transaction ends, so an append must be its transaction's
 * last statement (after the action's own row locks): a transaction holding the
 * lock then waits for nothing but its commit, and appends never deadlock.
 * Each row's checkpoint (the chain's new head, signed) goes to
 * audit_checkpoint in the same transaction, and an engine signs the head
 * again at its start (checkpointHead), so that a cut tail is found.
 */
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { KeyObject } from "node:crypto";
import {
  type AuditCheckpoint,
  type AuditContent,
  type AuditRow,
  auditHash,
  checkpointMac,
  GENESIS_HASH,
  judgeCheckpoints,
  startWalk,
  walkChain,
  type ChainVerdict,
} from "../domain/audit-chain.ts";
import type { Selectable } from "kysely";
import { maskCardNumbers } from "../../shared/card.ts";
import { type CashierDb, typedDb } from "../../store/typed-db.ts";
import { emOf, type Tx } from "../../store/tx.ts";
import type { AuditFilter, AuditLog, AuditRecord } from "../ports/audit.ts";

/** Any number: the advisory lock that orders appends to the chain. */
const AUDIT_LOCK = 7_207_369_013;

/** Free text in the log is cut to this many characters. */
const MAX_TEXT = 4000;
/**
 * Cut, then written as Postgres will store it, so that the hash is over what is stored: a NUL (which Postgres text
 * cannot hold: a refusal quoting one would otherwise go unaudited) and half of a surrogate pair (a cut through an
 * emoji, or a caller's lone escape; the driver stores it as U+FFFD, and the row would no longer match its hash) both
 * as U+FFFD.
 */
const cut = (s: string | undefined) => (s ?? "").slice(0, MAX_TEXT).toWellFormed().replaceAll("\u0000", "\uFFFD");

export class PgAuditStore implements AuditLog {
  readonly #orm: MikroORM;
  readonly #key: KeyObject;
  readonly #now: () => Date;

  /** `key`: the chain's HMAC key (Keys.auditChain), which the database never holds. */
  constructor(orm: MikroORM, key: KeyObject, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#key = key;
    this.#now = now;
  }

  /** Appends one row, in `tx` when given, else in a transaction of its own. */
  async append(record: AuditRecord, tx?: Tx): Promise<AuditRow> {
    if (tx) return this.#append(emOf(tx), record);
    return this.#orm.em.fork().transactional((tx) => this.#append(tx, record));
  }

  async #append(em: EntityManager, r: AuditRecord): Promise<AuditRow> {
    const db = typedDb(em);
    await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(db);
    const last = await db.selectFrom("audit_log").select(["id", "hash"]).orderBy("id", "desc").limit(1).executeTakeFirst();
    // Milliseconds, as the canonical text writes them: the stored time reads back equal.
    const at = new Date((r.at ?? this.#now()).getTime());
    const content: AuditContent = {
      id: (last?.id ?? 0) + 1,
      at,
      actor: cut(r.actor),
      action: cut(r.action),
      outcome: r.outcome,
      merchantId: cut(r.merchantId),
      target: cut(r.target),
      clientAddress: cut(r.clientAddress),
      beforeJson: cut(r.beforeJson),
      afterJson: cut(r.afterJson),
      // The one free text of a row (a refusal's words, an operator's reason): a card number typed in is masked. The other
      // fields are identifiers and canonical JSON, whose free text is masked where it is written (console-payouts.ts).
      detail: cut(maskCardNumbers(r.detail ?? "")),
    };
    const prevHash = last?.hash ?? GENESIS_HASH;
    const hash = auditHash(prevHash, content, this.#key);
    await db
      .insertInto("audit_log")
      .values({
        id: content.id,
        at: content.at,
        actor: content.actor,
        action: content.action,
        outcome: content.outcome,
        merchant_id: content.merchantId,
        target: content.target,
        client_address: content.clientAddress,
        before_json: content.beforeJson,
        after_json: content.afterJson,
        detail: content.detail,
        prev_hash: prevHash,
        hash,
      })
      .execute();
    await this.#checkpoint(db, { at: content.at, rowId: content.id, rowHash: hash, reason: "row" });
    return { ...content, prevHash, hash };
  }

  async #checkpoint(db: ReturnType<typeof typedDb>, c: AuditCheckpoint): Promise<AuditCheckpoint & { mac: string }> {
    const mac = checkpointMac(c, this.#key);
    await db.insertInto("audit_checkpoint").values({ at: c.at, row_id: c.rowId, row_hash: c.rowHash, reason: c.reason, mac }).execute();
    return { ...c, mac };
  }

  /**
   * Signs the chain's head as it stands (an engine's start): its last row's id and hash, under the chain's lock.
   * The caller logs it too, so that a copy lives outside the database.
   */
  async checkpointHead(): Promise<AuditCheckpoint & { mac: string }> {
    return this.#orm.em.fork().transactional(async (em) => {
      const db = typedDb(em);
      await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(db);
      const last = await db.selectFrom("audit_log").select(["id", "hash"]).orderBy("id", "desc").limit(1).executeTakeFirst();
      const at = new Date(this.#now().getTime());
      return this.#checkpoint(db, { at, rowId: last?.id ?? 0, rowHash: last?.hash ?? GENESIS_HASH, reason: "start" });
    });
  }

  /** Newest first. */
  async list(f: AuditFilter): Promise<AuditRow[]> {
    const db = typedDb(this.#orm.em.fork());
    let q = db.selectFrom("audit_log").selectAll();
    if (f.actor) q = q.where("actor", "=", f.actor);
    if (f.action) q = f.action.endsWith(".") ? q.where("action", "like", `${f.action.replace(/[%_\\]/g, "\\$&")}%`) : q.where("action", "=", f.action);
    if (f.merchantId) q = q.where("merchant_id", "=", f.merchantId);
    if (f.merchantIds) q = f.merchantIds.length > 0 ? q.where("merchant_id", "in", [...f.merchantIds]) : q.where(sql<boolean>`false`);
    if (f.startTime) q = q.where("at", ">=", f.startTime);
    if (f.endTime) q = q.where("at", "<", f.endTime);
    if (f.beforeId) q = q.where("id", "<", f.beforeId);
    const rows = await q.orderBy("id", "desc").limit(f.limit).execute();
    return rows.map(toRow);
  }

  /** Checks the whole chain in batches of `batch` rows. */
  async verify(batch = 1000): Promise<ChainVerdict> {
    const db = typedDb(this.#orm.em.fork());
    const walk = startWalk();
    for (;;) {
      const rows = (await db.selectFrom("audit_log").selectAll().where("id", ">=", walk.expectedId).orderBy("id", "asc").limit(batch).execute()).map(toRow);
      const broken = walkChain(walk, rows, this.#key);
      if (broken) return { intact: false, checked: walk.checked, firstBrokenId: broken.id, problem: broken.problem };
      if (rows.length < batch) break;
    }
    // The chain is whole as far as it goes; the checkpoints say how far it went and what each row's hash was. Those
    // that disagree with the chain (their row gone, or holding another hash: a tail cut, or cut and written again)
    // are judged, highest row first: signed, they break the chain; unsigned, they are named as forged.
    const lastId = walk.expectedId - 1;
    const suspects = await db
      .selectFrom("audit_checkpoint as c")
      .leftJoin("audit_log as a", "a.id", "c.row_id")
      .select(["c.at", "c.row_id", "c.row_hash", "c.reason", "c.mac", "a.hash as actual"])
      .where("c.row_id", ">", 0)
      .where((eb) => eb.or([eb("a.hash", "is", null), eb("a.hash", "!=", eb.ref("c.row_hash"))]))
      .orderBy("c.row_id", "desc")
      .limit(20)
      .execute();
    const actual = new Map(suspects.map((r) => [r.row_id, r.actual ?? undefined]));
    const checkpoints = suspects.map((r) => ({
      at: r.at,
      rowId: r.row_id,
      rowHash: r.row_hash,
      reason: r.reason === "start" ? ("start" as const) : ("row" as const),
      mac: r.mac,
    }));
    const anchorFault = judgeCheckpoints(lastId, (id) => actual.get(id), checkpoints, this.#key);
    if (anchorFault) return { intact: false, checked: walk.checked, firstBrokenId: anchorFault.id, problem: anchorFault.problem };
    const newest = await db.selectFrom("audit_checkpoint").select(["row_id", "at"]).orderBy("row_id", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
    return { intact: true, checked: walk.checked, anchor: newest ? { rowId: newest.row_id, at: newest.at } : undefined };
  }
}

/** An audit_log row as the typed query reads it: the entity's columns, as CashierDb infers them. */
type Stored = Selectable<CashierDb["audit_log"]>;

/** An audit_log row (as a typed query, or pg itself, reads it) as the chain sees it. */
export function toRow(r: Stored): AuditRow {
  return {
    id: r.id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    outcome: r.outcome === "failure" ? "failure" : "success",
    merchantId: r.merchant_id,
    target: r.target,
    clientAddress: r.client_address,
    beforeJson: r.before_json,
    afterJson: r.after_json,
    detail: r.detail,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}
