/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) of the bench: where the CPU
 * went, by package and by function.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof test/bench/bench.ts   (with BENCH_PHASES=edge, say)
 *   node test/bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [--top 25]
 *
 * "self" views charge each sample to the function running (builtins such as
 * JSON.parse or an HMAC have no script, so they show as "(native)"); the
 * "owner" view charges it to the nearest caller that belongs to a package or
 * to our code, so JSON.parse inside koa counts for koa and a socket write by
 * grpc-js for grpc-js. Samples with no such caller (event-loop callbacks inside
 * node itself) stay with node. The profile covers the whole process: the bench's
 * own client, the edge, the engine and the Postgres driver.
 *
 * V8 samples the main thread by wall clock: a sample taken while the thread
 * waits for a CPU (a busy machine) lands on whatever was running, typically a
 * socket write syscall ("writeBuffer"). Work on other threads (parallel GC,
 * libuv) is not in the profile; `perf record -g` with --perf-basic-prof sees both.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** file:///…/ of this repository, so our files are told apart from others. */
const ROOT = new URL("../../", import.meta.url).href;

const SPECIAL = new Set(["(garbage collector)", "(program)", "(idle)", "(root)"]);

/** A frame's category: a package, our code, node itself, or a V8 pseudo-frame. */
export function categoryOf(cf: CallFrame): string {
  if (SPECIAL.has(cf.functionName) && cf.url === "") return cf.functionName;
  const url = cf.url;
  if (url === "") return "(native)";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg === "@grpc/grpc-js") {
      const file = rest[rest.length - 1];
      return /^server/.test(file) ? "@grpc/grpc-js (server)" : "@grpc/grpc-js (client/shared)";
    }
    return pkg;
  }
  if (url.startsWith("node:")) {
    if (url === "node:inspector" || url.startsWith("node:internal/inspector")) return "(profiler)";
    if (/^node:(internal\/)?http2/.test(url)) return "node: http2";
    if (/^node:(_http_|http$|internal\/http)/.test(url)) return "node: http/1";
    if (/^node:(net|internal\/net|internal\/stream_base|stream|internal\/streams)/.test(url)) return "node: net/streams";
    if (/crypto/.test(url)) return "node: crypto";
    if (/^node:internal\/(process\/task_queues|timers|async_hooks|process\/promises)|^node:timers/.test(url)) return "node: event loop/timers/promises";
    return "node: other";
  }
  if (url.startsWith(ROOT)) {
    const dir = url.slice(ROOT.length).split("/")[0];
    if (dir === "test") return "bench/test client";
    if (dir === "gen") return "ours: generated protobuf";
    return `ours: ${dir}`;
  }
  return `other: ${url}`;
}

/** Categories that own a sample in the "owner" view: packages and our code. */
const isOwner = (cat: string) => !cat.startsWith("node:") && !cat.startsWith("(");

function pct(part: number, whole: number): string {
  return `${((part / whole) * 100).toFixed(1)}%`.padStart(6);
}

function print(title: string, totals: Map<string, number>, whole: number, top: number): void {
  console.log(`\n${title}`);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, us] of rows) console.log(`  ${pct(us, whole)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

function main(): void {
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
  const files = args.filter((a, i) => a !== "--top" && i !== topAt + 1);
  if (files.length === 0) {
    console.error("usage: node test/bench/profile-summary.ts <file.cpuprofile>... [--top N]");
    process.exitCode = 2;
    return;
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
    const byId = new Map<number, ProfileNode>();
    const parent = new Map<number, number>();
    for (const n of profile.nodes) {
      byId.set(n.id, n);
      for (const c of n.children ?? []) parent.set(c, n.id);
    }
    const self = new Map<number, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const id = profile.samples[i];
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
    const ownerCache = new Map<number, string>();
    const ownerOf = (id: number): string => {
      const cached = ownerCache.get(id);
      if (cached !== undefined) return cached;
      const node = byId.get(id)!;
      const cat = categoryOf(node.callFrame);
      let owner: string;
      if (isOwner(cat) || SPECIAL.has(cat)) owner = cat;
      else {
        const p = parent.get(id);
        owner = p === undefined ? cat : ownerOf(p);
        if (owner === "(root)") owner = cat;
      }
      ownerCache.set(id, owner);
      return owner;
    };

    const byCategory = new Map<string, number>();
    const byOwner = new Map<string, number>();
    const byFunction = new Map<string, number>();
    let total = 0;
    let idle = 0;
    let profiler = 0;
    for (const [id, us] of self) {
      const node = byId.get(id)!;
      const cf = node.callFrame;
      const cat = categoryOf(cf);
      total += us;
      if (cat === "(idle)") {
        idle += us;
        continue;
      }
      if (cat === "(profiler)") {
        profiler += us;
        continue;
      }
      byCategory.set(cat, (byCategory.get(cat) ?? 0) + us);
      const owner = ownerOf(id);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
      const where = cf.url ? `${cf.url.replace(/^.*\/node_modules\//, "").replace(ROOT, "")}:${cf.lineNumber + 1}` : cat;
      const fn = `${cf.functionName || "(anonymous)"}  ${where}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    }
    const busy = total - idle - profiler;
    console.log(`${file}`);
    console.log(
      `  wall ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s (${pct(busy, total).trim()}), idle ${(idle / 1e6).toFixed(1)} s, profiler ${(profiler / 1e6).toFixed(1)} s; shares below are of busy time`,
    );
    print("self time by category (the function running)", byCategory, busy, top);
    print("self time by owner (nearest package or our code on the stack)", byOwner, busy, top);
    print(`top ${top} functions by self time`, byFunction, busy, top);
  }
}

main();
