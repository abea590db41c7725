/**
 * The callback outbox on Postgres. Queued callbacks are inserted by the
 * statement that changes a transaction (order-store.ts), not here, so the
 * change and what it owes commit together; only a Validation call, made while
 * the customer waits, is recorded here after the fact. Workers claim due rows with FOR UPDATE SKIP
 * LOCKED and push next_attempt_at past the call's timeout (a lease): several
 * engines on one database never send one callback at the same moment, and a
 * crashed engine's claim simply falls due again. Per transaction and kind,
 * callbacks go out in the order they were owed (A before P before Y): a later
 * one waits while an earlier one is still pending. Every attempt is kept.
 */
import { randomUUID } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { AttemptOutcome, CallbackKind, CallbackState, Verdict } from "../domain/callbacks.ts";
import type { CallbackFilter, CallbackLog, CallbackView, ClaimedCallback } from "../app/ports.ts";
import type { SendResult } from "../callbacks/http-sender.ts";
import type { Row } from "./mappers.ts";
import { notifyWorkSql } from "./work-notice.ts";

/** Reply bodies are kept cut to this many characters. */
export const KEPT_REPLY_CHARS = 2048;

const cut = (s: string) => ([...s].length > KEPT_REPLY_CHARS ? [...s].slice(0, KEPT_REPLY_CHARS).join("") : s);

export class PgCallbackStore implements CallbackLog {
  readonly #orm: MikroORM;
  /** This engine's name in the work notices it sends (work-notice.ts). */
  readonly #origin: string;

  constructor(orm: MikroORM, origin = "") {
    this.#orm = orm;
    this.#origin = origin;
  }

  #exec(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.#orm.em.fork().execute<Row[]>(sql, params);
  }

  /** Claims up to `limit` due callbacks for `leaseMs`. */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedCallback[]> {
    const claim = randomUUID();
    const rows = await this.#exec(
      `update callback c set claim = ?, attempts = c.attempts + 1, updated_at = now(),
         next_attempt_at = now() + (? * interval '1 millisecond')
       where c.id in (select d.id from callback d where d.state = 'pending' and d.next_attempt_at <= now()
                        and not exists (select 1 from callback e where e.trace_id = d.trace_id and e.kind = d.kind
                                        and e.state = 'pending' and e.id < d.id)
                      order by d.next_attempt_at limit ? for update skip locked)
       returning c.id, c.event_id, c.kind, c.merchant_id, c.trace_id, c.url, c.body, c.attempts`,
      [claim, leaseMs, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      eventId: String(r.event_id),
      kind: r.kind as ClaimedCallback["kind"],
      merchantId: String(r.merchant_id),
      traceId: Number(r.trace_id),
      url: String(r.url),
      body: String(r.body),
      attempt: Number(r.attempts),
      claim,
    }));
  }

  /**
   * Keeps the attempt and, if the claim is still ours, moves the callback on.
   * A lost claim (the lease ran out and another worker took it) keeps only the attempt.
   */
  async recordAttempt(c: ClaimedCallback, r: SendResult, verdict: Verdict): Promise<void> {
    await this.#exec(
      `with a as (insert into callback_attempt (callback_id, at, duration_ms, http_status, response_body, outcome, error)
                  values (?, now() - (? * interval '1 millisecond'), ?, ?, ?, ?, ?))
       update callback set state = ?, claim = null, updated_at = now(),
         next_attempt_at = case when ? then now() + (? * interval '1 second') else next_attempt_at end
       where id = ? and claim = ?`,
      [
        c.id,
        r.durationMs,
        r.durationMs,
        r.httpStatus,
        cut(r.body),
        verdict.outcome,
        verdict.error,
        verdict.state,
        verdict.retryInSeconds !== null,
        verdict.retryInSeconds ?? 0,
        c.id,
        c.claim,
      ],
    );
  }

  /** A Validation call, made synchronously, kept like any callback with its one attempt. */
  async recordValidation(
    v: { merchantId: string; traceId: number; eventId: string; url: string; body: string; state: CallbackState; outcome: AttemptOutcome; error: string },
    r: SendResult,
  ): Promise<void> {
    await this.#exec(
      `with c as (insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, attempts)
                  values (?, 'validation', ?, ?, ?, ?, ?, 1) returning id)
       insert into callback_attempt (callback_id, at, duration_ms, http_status, response_body, outcome, error)
       select id, now() - (? * interval '1 millisecond'), ?, ?, ?, ?, ? from c`,
      [v.eventId, v.merchantId, v.traceId, v.url, v.body, v.state, r.durationMs, r.durationMs, r.httpStatus, cut(r.body), v.outcome, v.error],
    );
  }

  async list(f: CallbackFilter): Promise<CallbackView[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      where.push(sql);
      params.push(v);
    };
    if (f.merchantId) add("c.merchant_id = ?", f.merchantId);
    if (f.kind) add("c.kind = ?", f.kind);
    if (f.state) add("c.state = ?", f.state);
    if (f.traceId) add("c.trace_id = ?", f.traceId);
    if (f.beforeId) add("c.id < ?", f.beforeId);
    params.push(f.limit);
    const rows = await this.#exec(
      `select c.*, coalesce((select json_agg(json_build_object('at', a.at, 'duration_ms', a.duration_ms, 'http_status', a.http_status,
                'response_body', a.response_body, 'outcome', a.outcome, 'error', a.error) order by a.id)
              from callback_attempt a where a.callback_id = c.id), '[]') as attempt_list
       from callback c ${where.length ? `where ${where.join(" and ")}` : ""}
       order by c.id desc limit ?`,
      params,
    );
    return rows.map(viewOf);
  }

  /** Every callback a transaction owed, oldest first. */
  async forTransaction(traceId: number): Promise<CallbackView[]> {
    return (await this.list({ traceId, limit: 1000 })).reverse();
  }

  async get(id: number): Promise<CallbackView | undefined> {
    const [row] = await this.list({ beforeId: id + 1, limit: 1 });
    return row && row.id === id ? row : undefined;
  }

  /**
   * Makes a queued callback due now again (same event id), with a fresh count
   * of attempts (the stored attempts stay). Not while an attempt is in flight
   * (claimed, lease running): that would send it twice at once. Validation
   * calls are not queued. Made due, it wakes the other engines' delivery
   * workers at commit, in the same statement (work-notice.ts).
   */
  async redeliver(id: number): Promise<"ok" | "not-found" | "not-queued" | "in-flight"> {
    const rows = await this.#exec(
      `with r as (update callback set state = 'pending', attempts = 0, claim = null, next_attempt_at = now(), updated_at = now()
                  where id = ? and kind <> 'validation' and not (claim is not null and next_attempt_at > now()) returning id),
            wk as (select ${notifyWorkSql("'callback'", "?::text")} from r)
       select id, (select count(*) from wk) as woken from r`,
      [id, this.#origin],
    );
    if (rows.length > 0) return "ok";
    const [exists] = await this.#exec(`select kind from callback where id = ?`, [id]);
    if (!exists) return "not-found";
    return exists.kind === "validation" ? "not-queued" : "in-flight";
  }
}

function viewOf(r: Row): CallbackView {
  const attempts = (typeof r.attempt_list === "string" ? JSON.parse(r.attempt_list) : r.attempt_list) as Row[];
  return {
    id: Number(r.id),
    eventId: String(r.event_id),
    kind: r.kind as CallbackKind,
    state: r.state as CallbackState,
    merchantId: String(r.merchant_id),
    traceId: Number(r.trace_id),
    url: String(r.url),
    body: String(r.body),
    attemptCount: Number(r.attempts),
    nextAttemptAt: new Date(String(r.next_attempt_at instanceof Date ? r.next_attempt_at.toISOString() : r.next_attempt_at)),
    createdAt: new Date(String(r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at)),
    attempts: attempts.map((a) => ({
      at: new Date(String(a.at)),
      durationMs: Number(a.duration_ms),
      httpStatus: Number(a.http_status),
      responseBody: String(a.response_body),
      outcome: String(a.outcome),
      error: String(a.error),
    })),
  };
}
