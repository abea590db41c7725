/**
 * The simulator's fault switch, for tests only (its admin endpoint exists only
 * in test mode): the next payment requests matching an idempotency key or a
 * card number fail the way networks and acquirers do.
 * - timeout: the payment is taken and recorded, the answer held back (the caller gives up);
 * - 5xx: a 503, nothing taken;
 * - reset: the payment is taken and recorded, then the connection is cut without an answer.
 */
export type FaultKind = "timeout" | "5xx" | "reset";

export interface Fault {
  kind: FaultKind;
  idempotencyKey?: string;
  card?: string;
  /** How many requests it hits; then it is gone. */
  remaining: number;
  /** timeout: how long the answer is held. */
  delayMs: number;
}

const KINDS: ReadonlySet<string> = new Set(["timeout", "5xx", "reset"]);

/** A fault from the admin endpoint's JSON, or the name of its bad field. */
export function parseFault(body: unknown): Fault | { field: string } {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.fault !== "string" || !KINDS.has(b.fault)) return { field: "fault" };
  if (b.idempotency_key !== undefined && typeof b.idempotency_key !== "string") return { field: "idempotency_key" };
  if (b.card !== undefined && typeof b.card !== "string") return { field: "card" };
  if (b.idempotency_key === undefined && b.card === undefined) return { field: "idempotency_key" };
  const count = b.count ?? 1;
  if (!Number.isSafeInteger(count) || (count as number) < 1) return { field: "count" };
  const delay = b.delay_ms ?? 60_000;
  if (!Number.isSafeInteger(delay) || (delay as number) < 0) return { field: "delay_ms" };
  return {
    kind: b.fault as FaultKind,
    idempotencyKey: b.idempotency_key as string | undefined,
    card: b.card as string | undefined,
    remaining: count as number,
    delayMs: delay as number,
  };
}

export class FaultSwitch {
  #faults: Fault[] = [];

  add(f: Fault): void {
    this.#faults.push(f);
  }

  clear(): void {
    this.#faults = [];
  }

  /** The fault this request meets, counted down; undefined for none. */
  take(idempotencyKey: string, card: string | undefined): Fault | undefined {
    const f = this.#faults.find((x) => (x.idempotencyKey !== undefined && x.idempotencyKey === idempotencyKey) || (x.card !== undefined && x.card === card));
    if (!f) return undefined;
    f.remaining -= 1;
    if (f.remaining <= 0) this.#faults = this.#faults.filter((x) => x !== f);
    return f;
  }
}
