/**
 * The bench's memory line: this process's resident set (engine, edge thread,
 * load client: `npm start` plus the client) and the V8 heaps of the main and
 * edge threads, sampled every 250 ms, so a phase's peak is seen and not only
 * its end. "after" is taken BENCH_AFTER_SECONDS (default 5) after the load
 * stops, to show whether what the load took is given back.
 *
 * Postgres's PSS is read at most every PSS_EVERY_MS (and once at the end): the
 * kernel walks every page table of every backend for it, and reading it at each
 * new RSS peak took 9 % of this process's CPU samples in a gRPC phase, which
 * the phase's "node ms" then charged to the sales.
 */
import { readFileSync } from "node:fs";
import type { Worker } from "node:worker_threads";

const MB = 1024 * 1024;
const PSS_EVERY_MS = 2000;

export interface MemoryFigures {
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  heapPeakMain: number;
  heapPeakEdge: number;
  /** Proportional set size of the embedded Postgres (every process below this one but the simulator), at the peak sample. */
  pgPssPeak: number;
}

/** Proportional set size (shared pages split among their users) of a pid, in bytes; 0 when unreadable. */
function pss(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts sampling; `stop()` ends it and returns the figures (rss after is read by the caller's `after()`). */
export function memorySampler(edge: Worker | undefined, pgPids: () => number[]) {
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  let heapPeakMain = 0;
  let heapPeakEdge = 0;
  let pgPssPeak = 0;
  let busy = false;
  let pssReadAt = 0;
  let peakSincePss = true;
  const readPss = () => {
    pssReadAt = Date.now();
    peakSincePss = false;
    pgPssPeak = Math.max(
      pgPssPeak,
      pgPids().reduce((a, pid) => a + pss(pid), 0),
    );
  };
  const sample = async (last = false) => {
    if (busy) return;
    busy = true;
    try {
      const rss = process.memoryUsage.rss();
      if (rss >= rssPeak) {
        rssPeak = rss;
        peakSincePss = true;
      }
      if (peakSincePss && (last || Date.now() - pssReadAt >= PSS_EVERY_MS)) readPss();
      heapPeakMain = Math.max(heapPeakMain, process.memoryUsage().heapTotal);
      if (edge) heapPeakEdge = Math.max(heapPeakEdge, (await edge.getHeapStatistics()).total_heap_size);
    } catch {
      // the worker is gone (stopping): keep what was seen
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sample(), 250);
  return {
    async stop(): Promise<Omit<MemoryFigures, "rssAfter">> {
      clearInterval(timer);
      await sample(true);
      return { rssBefore, rssPeak, heapPeakMain, heapPeakEdge, pgPssPeak };
    },
  };
}

export function formatMemory(m: MemoryFigures, afterSeconds: number): string {
  const f = (n: number) => `${(n / MB).toFixed(0)} MB`;
  return (
    `memory:      node RSS ${f(m.rssBefore)} before the load, ${f(m.rssPeak)} peak, ${f(m.rssAfter)} ${afterSeconds} s after ` +
    `(V8 heaps at most: main ${f(m.heapPeakMain)}, edge thread ${f(m.heapPeakEdge)}); Postgres PSS at the peak ${f(m.pgPssPeak)}`
  );
}
