/**
 * How the bench drives a phase: a closed loop (a fixed number of callers, each
 * sending the next request when the previous one answers: the peak rate, and
 * at one caller the latency of a sale alone) or an open loop (requests sent at
 * a fixed rate whatever the answers do: the latency a platform sees at a given
 * load). The open loop times each request from the moment it was due, not
 * from the moment it was sent, so that a stalled service is not hidden by a
 * generator that waited for it (coordinated omission).
 */

/** One request; resolves to an error label, or undefined on success. Never rejects. */
export type Shot = () => Promise<string | undefined>;

/** What a loop saw in its measured window. */
export interface LoopResult {
  /** The successes' latencies in ms. */
  latencies: number[];
  errors: number;
  errorKinds: Map<string, number>;
  /** From the window's first request to its last answer. */
  seconds: number;
}

function count(r: LoopResult, error: string | undefined, ms: number): void {
  if (error === undefined) {
    r.latencies.push(ms);
    return;
  }
  r.errors += 1;
  r.errorKinds.set(error, (r.errorKinds.get(error) ?? 0) + 1);
}

/**
 * `concurrency` workers each send the next `shot` when the previous one
 * answers: `warmupSeconds` not counted, then `seconds` counted. `onMeasuring`
 * runs as the counted window opens.
 */
export async function closedLoop(shot: Shot, concurrency: number, warmupSeconds: number, seconds: number, onMeasuring: () => void): Promise<LoopResult> {
  const warmEnd = performance.now() + warmupSeconds * 1000;
  let measuring = false;
  let measureStart = 0;
  let measureEnd = Number.POSITIVE_INFINITY;
  const r: LoopResult = { latencies: [], errors: 0, errorKinds: new Map(), seconds: 0 };
  const worker = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= measureEnd) return;
      if (!measuring && started >= warmEnd) {
        measuring = true;
        measureStart = started;
        measureEnd = started + seconds * 1000;
        onMeasuring();
      }
      const counted = measuring;
      const error = await shot();
      if (counted) count(r, error, performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  r.seconds = (performance.now() - measureStart) / 1000;
  return r;
}

/** Requests in flight at most in the open loop: past it a due request counts as an error (the service has stalled). */
export const OPEN_LOOP_MAX_IN_FLIGHT = 4096;

/**
 * `rate` requests a second, each due at its own instant (start + i / rate),
 * sent as soon as the timer lets it and timed from that instant:
 * `warmupSeconds` not counted, then `seconds` counted (requests due in the
 * window; the window ends when the last of them has answered).
 */
export async function openLoop(shot: Shot, rate: number, warmupSeconds: number, seconds: number, onMeasuring: () => void): Promise<LoopResult> {
  const r: LoopResult = { latencies: [], errors: 0, errorKinds: new Map(), seconds: 0 };
  const start = performance.now();
  const measureStart = start + warmupSeconds * 1000;
  const end = measureStart + seconds * 1000;
  const interval = 1000 / rate;
  const inFlight = new Set<Promise<void>>();
  let measuring = false;
  let sent = 0;
  for (;;) {
    const now = performance.now();
    // Every request due by now leaves now, each timed from when it was due.
    for (let due = start + sent * interval; due <= now && due < end; due = start + sent * interval) {
      sent += 1;
      const counted = due >= measureStart;
      if (counted && !measuring) {
        measuring = true;
        onMeasuring();
      }
      if (inFlight.size >= OPEN_LOOP_MAX_IN_FLIGHT) {
        if (counted) count(r, `over ${OPEN_LOOP_MAX_IN_FLIGHT} requests in flight`, 0);
        continue;
      }
      const p: Promise<void> = shot().then((error) => {
        inFlight.delete(p);
        if (counted) count(r, error, performance.now() - due);
      });
      inFlight.add(p);
    }
    if (start + sent * interval >= end) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(interval, start + sent * interval - performance.now()))));
  }
  await Promise.all(inFlight);
  r.seconds = (performance.now() - measureStart) / 1000;
  return r;
}
