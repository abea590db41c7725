/**
 * The edge's worker thread, seen from the bench: its CPU over a phase
 * (Worker.cpuUsage, so the Node CPU per sale splits into edge thread and the
 * rest) and, when BENCH_CPU_PROFILE is set, its own V8 CPU profile
 * (Worker.startCpuProfile), written as edge-thread.cpuprofile beside the main
 * thread's edge.cpuprofile: the main thread's profile never sees the edge.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";

/** CPU seconds the thread used since `start()`; 0 without a thread. */
export function edgeThreadCpu(thread: Worker | undefined) {
  let begin: Promise<NodeJS.CpuUsage> | undefined;
  return {
    start(): void {
      begin = thread?.cpuUsage();
    },
    async seconds(): Promise<number> {
      if (!thread || !begin) return 0;
      const used = await thread.cpuUsage(await begin);
      return (used.user + used.system) / 1e6;
    },
  };
}

/** Profiles the edge thread from start() to stop() into `<dir>/<file>`; does nothing without a dir. */
export function edgeThreadProfiler(thread: Worker | undefined, dir: string | undefined, file: string) {
  let handle: Promise<{ stop(): Promise<string> }> | undefined;
  return {
    start(): void {
      if (thread && dir) handle = thread.startCpuProfile() as Promise<{ stop(): Promise<string> }>;
    },
    async stop(): Promise<void> {
      if (!handle || !dir) return;
      const profile = await (await handle).stop();
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file), profile);
    },
  };
}
