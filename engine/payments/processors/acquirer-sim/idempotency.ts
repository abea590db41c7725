/**
 * Recorded answers by idempotency key, for the Checkout.com and Adyen
 * dialects: an answer is written to the ledger in the same write as the
 * payment it took, so a retried request gets exactly the first answer, even
 * after a restart. The body's hash is kept beside it: Checkout.com refuses a
 * known key that comes with another body; Adyen answers what it answered.
 */
import { createHash } from "node:crypto";
import type { Answer } from "./http.ts";
import type { KeyLock } from "./key-lock.ts";
import type { Entry, Ledger } from "./ledger.ts";

export interface IdempotencyEntry extends Entry {
  t: "idem";
  /** The dialect, the account's scope and the operation ("cko/<scope>/payments"). */
  scope: string;
  key: string;
  /** sha256 of the request body as canonical JSON. */
  hash: string;
  answer: Answer;
}

/** The body as canonical JSON (keys sorted at every depth), hashed: one request sent twice hashes the same. */
export function bodyHash(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

export class IdempotencyBook {
  readonly #answers = new Map<string, IdempotencyEntry>();

  apply(entry: Entry): void {
    if (entry.t !== "idem") return;
    const e = entry as IdempotencyEntry;
    const k = `${e.scope}\n${e.key}`;
    if (!this.#answers.has(k)) this.#answers.set(k, e);
  }

  find(scope: string, key: string): IdempotencyEntry | undefined {
    return this.#answers.get(`${scope}\n${key}`);
  }
}

/** What a request decided: its answer and the ledger entries that must be on disk before it is given. */
export interface Decided {
  answer: Answer;
  entries: Entry[];
}

export interface OnceOptions {
  ledger: Ledger;
  book: IdempotencyBook;
  locks: KeyLock;
  /** The dialect, account and operation the key belongs to. */
  scope: string;
  key: string | undefined;
  body: unknown;
  /** Decides; runs under `resource`'s lock when given (a payment it changes). */
  run: () => Decided;
  resource?: string;
  /** The answer while another request with the key is being decided. */
  busy: () => Answer;
  /** The answer to a known key with another body; undefined: the recorded answer regardless (Adyen). */
  otherBody?: () => Answer;
}

/**
 * Runs a POST at most once per idempotency key: a known key gets the
 * recorded answer (or `otherBody`), a key under way gets `busy`, and a new
 * one is decided and written, its answer recorded (2xx only) in the same
 * ledger write as what it took, before the answer is given.
 */
export async function answerOnce(o: OnceOptions): Promise<Answer> {
  const hash = bodyHash(o.body);
  const decide = async (): Promise<Answer> => {
    const { answer, entries } = o.run();
    const record: IdempotencyEntry[] =
      o.key !== undefined && answer.http < 300 ? [{ t: "idem", scope: o.scope, key: o.key, hash, answer: { http: answer.http, body: answer.body } }] : [];
    if (entries.length > 0 || record.length > 0) await o.ledger.append(...entries, ...record);
    return answer;
  };
  const go = async (): Promise<Answer> => {
    const seen = o.key === undefined ? undefined : o.book.find(o.scope, o.key);
    if (seen) return seen.hash === hash || !o.otherBody ? seen.answer : o.otherBody();
    return o.resource ? o.locks.run(o.resource, decide) : decide();
  };
  if (o.key === undefined) return go();
  return (await o.locks.tryRun(`idem/${o.scope}/${o.key}`, go)) ?? o.busy();
}
