/**
 * The performance goals of the bench's run (docs/measurements/README.md),
 * each read as the median over the rounds of the run, printed with the figure
 * measured and whether it is met, so that one `npm run bench` says how far
 * the service is from each:
 *
 *   - edge >= 60 % and gRPC >= 80 % of the batched bound (`floor`) by req/s;
 *   - a sale alone (concurrency 1): the edge's p50 within 2 ms of the bound's;
 *   - at half of peak (open loop): the edge's p99 at most twice the bound's p99
 *     at half of its own peak;
 *   - callbacks: >= 2,000 deliveries/s to one fast platform (callbacks-phase.ts,
 *     run once per bench; the slow platforms' cost is printed beside it);
 *   - the hosted Cashier's deposit flow: at most 15 ms of CPU (node + Postgres);
 *   - RSS at most 300 MB at the peak (this process: the service and the load
 *     generator both, so an upper bound of the service's own).
 *
 * A goal whose phases were not run is left out.
 */

/** What the goals read of a phase's round. */
export interface RoundFigures {
  rps: number;
  p50: number;
  p99: number;
  /** CPU ms per success, node and Postgres. */
  cpuMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Per round i, f(a[i], b[i]); the median of those. Undefined when either phase is missing. */
function pairMedian(a: RoundFigures[] | undefined, b: RoundFigures[] | undefined, f: (x: RoundFigures, y: RoundFigures) => number): number | undefined {
  if (!a?.length || !b?.length) return undefined;
  return median(a.slice(0, b.length).map((x, i) => f(x, b[i])));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** The goals' lines: `goal  <what>  <measured>  met|NOT met`. */
export function goalsReport(rounds: Map<string, RoundFigures[]>, rssPeakBytes: number | undefined, callbacksPerSecond?: number): string[] {
  const lines: [string, string, boolean][] = [];
  const add = (what: string, value: number | undefined, show: (v: number) => string, met: (v: number) => boolean) => {
    if (value !== undefined && !Number.isNaN(value)) lines.push([what, show(value), met(value)]);
  };
  const floor = rounds.get("floor");
  add(
    "edge >= 60% of the batched bound by req/s",
    pairMedian(rounds.get("edge"), floor, (e, f) => e.rps / f.rps),
    pct,
    (v) => v >= 0.6,
  );
  add(
    "grpc >= 80% of the batched bound by req/s",
    pairMedian(rounds.get("grpc"), floor, (g, f) => g.rps / f.rps),
    pct,
    (v) => v >= 0.8,
  );
  add(
    "a sale alone: edge p50 within 2 ms of the bound's",
    pairMedian(rounds.get("edge-c1"), rounds.get("floor-c1"), (e, f) => e.p50 - f.p50),
    (v) => `+${ms(v)}`,
    (v) => v <= 2,
  );
  add(
    "half of peak: edge p99 <= 2x the bound's p99",
    pairMedian(rounds.get("edge-open"), rounds.get("floor-open"), (e, f) => e.p99 / f.p99),
    (v) => `${v.toFixed(2)}x`,
    (v) => v <= 2,
  );
  add(
    "callbacks >= 2,000 deliveries/s to one fast platform",
    callbacksPerSecond,
    (v) => `${v.toFixed(0)}/s`,
    (v) => v >= 2000,
  );
  const cashier = rounds.get("cashier");
  add("a deposit flow <= 15 ms of CPU", cashier?.length ? median(cashier.map((r) => r.cpuMs)) : undefined, ms, (v) => v <= 15);
  add(
    "RSS <= 300 MB at the peak (service and load generator)",
    rssPeakBytes === undefined ? undefined : rssPeakBytes / 1024 / 1024,
    (v) => `${v.toFixed(0)} MB`,
    (v) => v <= 300,
  );
  if (lines.length === 0) return [];
  const width = Math.max(...lines.map(([w]) => w.length));
  const valueWidth = Math.max(...lines.map(([, v]) => v.length));
  return ["", "goals (median of rounds):", ...lines.map(([w, v, met]) => `  ${w.padEnd(width)}  ${v.padStart(valueWidth)}  ${met ? "met" : "NOT met"}`)];
}
