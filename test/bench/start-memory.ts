/**
 * `npm run bench -- --start-memory [--seconds S] [--after S] [--concurrency N]`:
 * the memory of `npm start` as an operator runs it. Spawns
 * `node engine/main.ts --with-edge` (engine, edge worker thread, embedded
 * Postgres, acquirer simulator) on a fresh data dir with the test merchants,
 * reads its resident set from /proc while idle, under the bench's load (signed
 * approved sales through the edge, closed loop, default concurrency 64 for
 * 10 s) and `--after` seconds (default 30) after the load, and prints them with
 * the Postgres processes' proportional set size. It runs with the node flags
 * of package.json's start script; BENCH_START_NODE_FLAGS replaces them (to
 * compare heap settings; --trace-gc adds each isolate's committed heap).
 * Only 127.0.0.1 is loaded; the process is stopped (SIGTERM) at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { MERCHANTS } from "../support/merchants.ts";
import { saleBody, sign } from "../support/wire.ts";

const MB = 1024 * 1024;

/** The node flags of package.json's `start` script (`node <flags> engine/main.ts ...`): what an operator runs. */
function startScriptFlags(): string {
  const start: string = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).scripts.start;
  const m = /^node((?: --[^ ]+)*) engine\/main\.ts\b/.exec(start);
  if (!m) throw new Error(`package.json's start script is not "node <flags> engine/main.ts ...": ${start}`);
  return m[1].trim();
}
const repo = new URL("../..", import.meta.url).pathname;

function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function pss(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process below `root`, by name (from /proc). */
function descendants(root: number): { pid: number; name: string }[] {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      name.set(Number(d), stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
    } catch {
      // gone
    }
  }
  const out: { pid: number; name: string }[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        out.push({ pid, name: name.get(pid) ?? "?" });
        break;
      }
    }
  }
  return out;
}

interface Snapshot {
  rss: number;
  pgPss: number;
  simRss: number;
}

function snapshot(pid: number): Snapshot {
  const kids = descendants(pid);
  return {
    rss: statusKb(pid, "VmRSS"),
    pgPss: kids.filter((k) => k.name.startsWith("postgres")).reduce((a, k) => a + pss(k.pid), 0),
    simRss: kids.filter((k) => !k.name.startsWith("postgres")).reduce((a, k) => a + statusKb(k.pid, "VmRSS"), 0),
  };
}

export async function startMemoryMain(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: { seconds: { type: "string" }, after: { type: "string" }, concurrency: { type: "string" } },
  });
  const seconds = Number(values.seconds ?? 10);
  const after = Number(values.after ?? 30);
  const concurrency = Number(values.concurrency ?? 64);
  const dir = mkdtempSync(join(tmpdir(), "cashier-mem-"));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, "merchants.json"), JSON.stringify(MERCHANTS));
  // npm start's own node flags unless BENCH_START_NODE_FLAGS says otherwise ("" for none).
  const flags = (process.env.BENCH_START_NODE_FLAGS ?? startScriptFlags()).split(" ").filter((f) => f !== "");
  const child = spawn(process.execPath, [...flags, "engine/main.ts", "--with-edge"], {
    cwd: repo,
    env: {
      ...process.env,
      CASHIER_DATA_DIR: dir,
      CASHIER_MERCHANTS_FILE: join(dir, "merchants.json"),
      EDGE_PORT: "0",
      ENGINE_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  // With --trace-gc among the flags: V8's pause per collection, summed while loading.
  const gc = { counting: false, scavenges: 0, scavengeMs: 0, majors: 0, majorMs: 0 };
  // The most each isolate (each thread: the engine's, the edge's, the Backoffice's) had committed, from the
  // trace's "used (committed) -> used (committed) MB", by the isolate address V8 prefixes each line with.
  const committed = new Map<string, number>();
  // Trace lines are read whole (a chunk may end inside one) and only the engine's own: the simulator's process
  // traces too, and the engine forwards its output.
  let partial = "";
  child.stdout.on("data", (c: Buffer) => {
    const chunk = c.toString("utf8");
    out += chunk;
    const text = partial + chunk;
    const cut = text.lastIndexOf("\n");
    partial = text.slice(cut + 1);
    const lines = text.slice(0, cut + 1);
    const own = String(child.pid);
    for (const [, pid, isolate, mb] of lines.matchAll(/\[(\d+):(0x[0-9a-f]+)\][^\n]*?-> [\d.]+ \(([\d.]+)\) MB/g)) {
      if (pid === own) committed.set(isolate, Math.max(committed.get(isolate) ?? 0, Number(mb)));
    }
    if (!gc.counting) return;
    for (const [, pid, kind, ms] of lines.matchAll(/\[(\d+):0x[0-9a-f]+\][^\n]*?\b(Scavenge|Mark-Compact|Minor Mark-Sweep)\b[^\n]*?, ([\d.]+) \/ [\d.]+ ms/g)) {
      if (pid !== own) continue;
      if (kind === "Mark-Compact") {
        gc.majors++;
        gc.majorMs += Number(ms);
      } else {
        gc.scavenges++;
        gc.scavengeMs += Number(ms);
      }
    }
  });
  const budget = setTimeout(
    () => {
      console.error("[bench] start-memory gave up");
      child.kill("SIGKILL");
      process.exit(2);
    },
    (120 + seconds + after + 30) * 1000,
  );
  try {
    let port = 0;
    for (let i = 0; i < 600 && port === 0; i++) {
      const m = /"edgePort":(\d+)/.exec(out);
      if (m) port = Number(m[1]);
      else await sleep(100);
    }
    if (port === 0) throw new Error(`npm start did not become ready:\n${out.slice(-2000)}`);
    out = ""; // the request log is not kept
    await sleep(5000);
    const idle = snapshot(child.pid!);
    const url = new URL("/api/process", `http://127.0.0.1:${port}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    let peak = idle;
    let ok = 0;
    let failed = 0;
    const end = performance.now() + seconds * 1000;
    const sampler = setInterval(() => {
      const s = snapshot(child.pid!);
      if (s.rss > peak.rss) peak = s;
    }, 250);
    const worker = async () => {
      while (performance.now() < end) {
        const body = Buffer.from(JSON.stringify(sign(saleBody({}))));
        const good = await new Promise<boolean>((resolve) => {
          const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length } }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode === 200));
          });
          req.on("error", () => resolve(false));
          req.end(body);
        });
        if (good) ok++;
        else failed++;
        out = "";
      }
    };
    gc.counting = true;
    await Promise.all(Array.from({ length: concurrency }, worker));
    gc.counting = false;
    clearInterval(sampler);
    agent.destroy();
    const end0 = snapshot(child.pid!);
    await sleep(after * 1000);
    const later = snapshot(child.pid!);
    const f = (s: Snapshot) =>
      `node RSS ${(s.rss / MB).toFixed(0)} MB, Postgres PSS ${(s.pgPss / MB).toFixed(0)} MB, simulator RSS ${(s.simRss / MB).toFixed(0)} MB`;
    console.log(
      `start-memory: npm start${flags.length ? ` with ${flags.join(" ")}` : ""}, ${concurrency} in flight for ${seconds} s: ${ok} approved sales, ${failed} failed`,
    );
    console.log(`idle:        ${f(idle)}`);
    console.log(`peak:        ${f(peak)}`);
    console.log(`load ended:  ${f(end0)}`);
    console.log(`${after} s after: ${f(later)}`);
    if (flags.includes("--trace-gc"))
      console.log(
        `gc (load):   ${gc.scavenges} young collections, ${gc.scavengeMs.toFixed(0)} ms; ${gc.majors} mark-compacts, ${gc.majorMs.toFixed(0)} ms; ` +
          `${ok > 0 ? ((gc.scavengeMs + gc.majorMs) / ok).toFixed(3) : "-"} ms of GC pause per sale (the engine process's threads)`,
      );
    if (committed.size > 0)
      console.log(
        `v8 heaps:    at most ${[...committed.values()].map((mb) => `${mb.toFixed(0)} MB`).join(", ")} committed, one per thread of the engine process in the order they first collected`,
      );
  } finally {
    clearTimeout(budget);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
