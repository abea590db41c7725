/**
 * `npm run ha-lab`: starts the HA lab (lab.ts) and keeps it until Ctrl-C,
 * printing the URLs to give an engine (DATABASE_URL) and a reader
 * (DATABASE_READ_URL), and reading faults from the terminal: `kill`,
 * `switchover`, `cut`, `restore <node>`, `status`. docs/ha-lab.md walks
 * through it.
 *
 * Usage: npm run ha-lab [-- --dir <dir>] (a dir given is kept after the stop)
 */
import { createInterface } from "node:readline";
import { type HaLab, missingPackages, startHaLab } from "./lab.ts";

const dirArg = process.argv.indexOf("--dir");
const dir = dirArg > 0 ? process.argv[dirArg + 1] : undefined;
const say = (line: string) => process.stdout.write(`ha-lab: ${line}\n`);

const missing = missingPackages();
if (missing.length > 0) {
  process.stderr.write(`ha-lab: Debian's ${missing.join(", ")} missing; install them with:\n  sudo apt-get install -y ${missing.join(" ")}\n`);
  process.exit(1);
}

say("starting etcd, three Patroni nodes (synchronous replication) and HAProxy...");
const lab: HaLab = await startHaLab({ dir, keep: dir !== undefined, say });
const status = async () => {
  for (const m of await lab.members().catch(() => [])) say(`  ${m.name}: ${m.role}, ${m.state}, timeline ${m.timeline ?? "?"}`);
};
process.stdout.write(`
DATABASE_URL=${lab.databaseUrl}
DATABASE_READ_URL=${lab.readUrl}

HAProxy's page: ${lab.statsUrl}
patronictl:     patronictl -c ${lab.patronictlConfig} list
data and logs:  ${lab.dir}

Type kill (kill -9 the primary node), switchover, cut (freeze the primary), restore <node>, status; Ctrl-C stops it all.
`);
await status();

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  say("stopping...");
  await lab.stop();
  say("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

const rl = createInterface({ input: process.stdin });
rl.on("close", () => {
  // stdin closed (not a terminal): keep running until a signal.
});
rl.on("line", (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  const act = async () => {
    if (cmd === "kill") await lab.killPrimary();
    else if (cmd === "switchover") await lab.switchover();
    else if (cmd === "cut") await lab.cutPrimary();
    else if (cmd === "restore" && arg) await lab.restore(arg);
    else if (cmd === "status" || cmd === "") await status();
    else say("commands: kill, switchover, cut, restore <node>, status");
  };
  act().catch((err: unknown) => say(err instanceof Error ? err.message : String(err)));
});
