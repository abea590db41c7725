/**
 * The simulator's ledger on its own: an entry counts (is applied) only once
 * it is on disk, a torn last line is dropped with a log line and never has
 * the next entry written onto it, the damage an older writer left (a torn
 * line with the next entry appended to it) keeps that entry, and a damaged
 * line that is neither stops the start. A full disk is the e2e tier's
 * (ledger-disk-full.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t, { type Test } from "tap";
import { type Entry, Ledger, LedgerUnavailable } from "../../../../../../engine/payments/processors/acquirer-sim/ledger.ts";

function recorder() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    log: {
      warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: "warn", fields, message }),
      error: (fields: Record<string, unknown>, message: string) => lines.push({ level: "error", fields, message }),
    },
  };
}

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), "ledger-unit-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const pay = (key: string): Entry => ({
  t: "payment",
  p: { acquirer: "sim-a", key, id: `sim-a-a1-${key}`, operation: "sale", status: "approved", code: null, message: null, at: 1 },
});

t.test("an entry is applied only once it is on disk; entries come back in order after a restart", async (t) => {
  const dir = tempDir(t);
  const applied: Entry[] = [];
  const ledger = new Ledger(dir);
  await ledger.open((e) => applied.push(e));
  const writes = [ledger.append(pay("1")), ledger.append(pay("2"), pay("3"))];
  t.equal(applied.length, 0, "nothing applied before the write resolves");
  await Promise.all(writes);
  t.same(
    applied.map((e) => (e.p as { key: string }).key),
    ["1", "2", "3"],
    "applied once on disk, in order",
  );
  await ledger.close();
  const again: Entry[] = [];
  const reopened = new Ledger(dir);
  await reopened.open((e) => again.push(e));
  t.same(again, applied, "read back as written");
  await reopened.close();
});

t.test("a write to a closed ledger is refused as unavailable and applies nothing", async (t) => {
  const applied: Entry[] = [];
  const ledger = new Ledger(tempDir(t));
  await ledger.open((e) => applied.push(e));
  await ledger.close();
  await t.rejects(ledger.append(pay("1")), LedgerUnavailable);
  t.equal(applied.length, 0);
});

t.test("a torn last line is dropped with a log line, and the next entry starts a line of its own", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, "ledger.jsonl");
  const whole = `${JSON.stringify(pay("1"))}\n`;
  writeFileSync(file, `${whole}${JSON.stringify(pay("2")).slice(0, 40)}`);
  const { lines, log } = recorder();
  const applied: Entry[] = [];
  const ledger = new Ledger(dir, log);
  await ledger.open((e) => applied.push(e));
  t.equal(applied.length, 1, "the whole line is kept");
  t.match(lines, [{ level: "warn", message: /torn last line/, fields: { bytes: 40 } }], "the drop is logged");
  t.equal(readFileSync(file, "utf8"), whole, "the torn bytes are cut off the file");
  await ledger.append(pay("3"));
  await ledger.close();
  const text = readFileSync(file, "utf8");
  t.equal(text, `${whole}${JSON.stringify(pay("3"))}\n`, "the next entry is on its own line");
  const again: Entry[] = [];
  const reopened = new Ledger(dir, log);
  await reopened.open((e) => again.push(e));
  t.equal(again.length, 2, "both entries read back");
  await reopened.close();
});

t.test("an older writer's damage: a torn line with the next entry written onto it keeps that entry", async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, "ledger.jsonl"),
    `${JSON.stringify(pay("1"))}\n${JSON.stringify(pay("2")).slice(0, 33)}${JSON.stringify(pay("3"))}\n${JSON.stringify(pay("4"))}\n`,
  );
  const { lines, log } = recorder();
  const applied: Entry[] = [];
  const ledger = new Ledger(dir, log);
  await ledger.open((e) => applied.push(e));
  t.same(
    applied.map((e) => (e.p as { key: string }).key),
    ["1", "3", "4"],
    "the torn entry is gone, the one written onto it is kept",
  );
  t.match(lines, [{ level: "warn", message: /torn line that the next entry was written onto/, fields: { line: 2, bytes: 33 } }]);
  await ledger.close();
});

t.test("a damaged line that is not a torn one stops the start, naming the line", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "ledger.jsonl"), `${JSON.stringify(pay("1"))}\nnot json at all\n${JSON.stringify(pay("2"))}\n`);
  await t.rejects(
    new Ledger(dir).open(() => {}),
    /line 2 is damaged/,
  );
});

t.test("one writer at a time: a second ledger on the same dir waits for the first to close; a dead owner's lock is taken over", async (t) => {
  const dir = tempDir(t);
  const first = new Ledger(dir);
  await first.open(() => {});
  let secondOpen = false;
  const second = new Ledger(dir);
  const opening = second.open(() => {}).then(() => (secondOpen = true));
  await new Promise((r) => setTimeout(r, 200));
  t.notOk(secondOpen, "the second waits while the first holds the ledger");
  await first.close();
  await opening;
  t.ok(secondOpen, "and opens once it is closed");
  await second.close();

  writeFileSync(join(dir, "ledger.jsonl.lock"), String(spawnSync(process.execPath, ["-e", ""]).pid));
  const third = new Ledger(dir);
  await third.open(() => {});
  t.equal(readFileSync(join(dir, "ledger.jsonl.lock"), "utf8"), String(process.pid), "the lock of a process that is gone is taken over");
  await third.close();
});
