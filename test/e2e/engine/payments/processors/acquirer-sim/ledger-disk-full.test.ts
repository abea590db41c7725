/**
 * The simulator's ledger on a disk that fills, for real: a tmpfs of 256 KiB
 * mounted for this test (root only; skipped, saying why, where mounting is
 * impossible), nearly filled, then payments sent concurrently until the disk
 * refuses them. Every payment answered 200 must be in the ledger after a
 * restart (same id, same status); every payment answered 503 must not be
 * (its key is found unseen); no line of the file is torn or holds two
 * entries; and once room is made the simulator takes payments again without a
 * restart. Then: a ledger that starts with a torn last line.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { startAcquirerSim, type AcquirerSim } from "../../../../../../engine/payments/processors/acquirer-sim/server.ts";
import { TEST_KEYS } from "../../../../../support/acquirer-sim.ts";

const auth = { authorization: `Bearer ${TEST_KEYS["sim-a"]}` };
const CHECKOUT_KEY = "sk_sbox_disk-full-test-key";

function recorder() {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    log: {
      warn: (_: unknown, message: string) => lines.push({ level: "warn", message }),
      error: (_: unknown, message: string) => lines.push({ level: "error", message }),
    },
  };
}

async function sale(sim: AcquirerSim, key: string): Promise<{ key: string; status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sim.url}/v1/payments`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ operation: "sale", amount: 1050, currency: "USD", card: { number: "4111111111111111", expiry: "12/2030", cvv: "123" } }),
  });
  return { key, status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function lookup(sim: AcquirerSim, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sim.url}/v1/payments?idempotency_key=${key}`, { headers: auth });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A tmpfs of `size` mounted on a new directory, or the reason it cannot be. */
function mountTmpfs(size: string): { dir: string; unmount: () => void } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: "mounting a tmpfs needs root, and this test runs as another user" };
  const dir = mkdtempSync(join(tmpdir(), "ledger-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `mount -t tmpfs failed here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const mounted = mountTmpfs("256k");

t.test("a disk that fills: only what is on disk is acknowledged, and it all comes back", { skip: "skip" in mounted ? mounted.skip : false }, async (t) => {
  if ("skip" in mounted) return;
  let sim: AcquirerSim | undefined;
  t.teardown(async () => {
    await sim?.close();
    mounted.unmount();
  });
  const dataDir = join(mounted.dir, "sim");
  mkdirSync(dataDir);
  // Leave about 24 KiB free: room for a hundred-odd entries.
  const free = () => {
    const s = statfsSync(mounted.dir);
    return s.bavail * s.bsize;
  };
  const filler = join(mounted.dir, "filler");
  writeFileSync(filler, Buffer.alloc(free() - 24 * 1024));
  const { lines, log } = recorder();
  const start = () => startAcquirerSim({ dataDir, port: 0, keys: TEST_KEYS, testMode: true, log, accounts: { checkout: [{ secret_key: CHECKOUT_KEY }] } });
  sim = await start();

  const answers: Awaited<ReturnType<typeof sale>>[] = [];
  for (let round = 0; round < 40 && !answers.some((a) => a.status === 503); round++) {
    const batch = await Promise.all(Array.from({ length: 25 }, (_, i) => sale(sim as AcquirerSim, `full-${round}-${i}`)));
    answers.push(...batch);
  }
  // A few more rounds once full: every one of them must be refused cleanly.
  for (let round = 0; round < 3; round++)
    answers.push(...(await Promise.all(Array.from({ length: 25 }, (_, i) => sale(sim as AcquirerSim, `after-${round}-${i}`)))));
  const taken = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 503);
  t.ok(taken.length > 50, `payments were taken before the disk filled (${taken.length})`);
  t.ok(refused.length > 0, `the full disk refused payments (${refused.length})`);
  t.equal(taken.length + refused.length, answers.length, "every answer is 200 or 503");
  t.ok(
    refused.every((a) => a.body.error === "service_unavailable"),
    "a refusal says the acquirer is unavailable",
  );
  t.ok(
    lines.some((l) => l.level === "error" && /ledger write failed/.test(l.message)),
    "the failed write is logged",
  );
  // The Checkout.com dialect on the same full disk: what a write's cut-back left fits a few; then its own 503.
  const ckoTaken: string[] = [];
  let ckoRefusal: { status: number; body: Record<string, unknown> } | undefined;
  for (let i = 0; i < 50 && !ckoRefusal; i++) {
    const res = await fetch(`${sim.url}/checkout/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${CHECKOUT_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        source: { type: "card", number: "4242424242424242", expiry_month: 12, expiry_year: 2030 },
        amount: 1000,
        currency: "USD",
        processing_channel_id: "pc_aaaaaaaaaaaaaaaaaaaaaaaaaa",
      }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status === 201) ckoTaken.push(body.id as string);
    else ckoRefusal = { status: res.status, body };
  }
  t.match(ckoRefusal, { status: 503, body: { error_type: "service_unavailable" } }, "the Checkout.com dialect answers its own 503 on a full disk");

  // Room again: the simulator takes payments without a restart.
  rmSync(filler);
  const later = await sale(sim, "after-room");
  t.equal(later.status, 200, "with room again, a payment is taken");
  taken.push(later);

  await sim.close();
  const text = readFileSync(join(dataDir, "ledger.jsonl"), "utf8");
  t.ok(text.endsWith("\n"), "the file ends on a whole line");
  const entries = text.trimEnd().split("\n");
  t.ok(
    entries.every((l) => l.startsWith('{"t":') && (l.match(/\{"t":/g) ?? []).length === 1 && JSON.parse(l)),
    `every one of the ${entries.length} lines is one whole entry`,
  );
  t.equal(entries.filter((l) => l.startsWith('{"t":"payment"')).length, taken.length, "the ledger holds exactly the acknowledged payments");

  sim = await start();
  let same = 0;
  for (const a of taken) {
    const found = await lookup(sim, a.key);
    if (found.status === 200 && found.body.id === a.body.id && found.body.status === a.body.status) same++;
  }
  t.equal(same, taken.length, "after a restart, every acknowledged payment is found with its id and status");
  let ckoFound = 0;
  for (const id of ckoTaken)
    if ((await fetch(`${sim.url}/checkout/payments/${id}`, { headers: { authorization: `Bearer ${CHECKOUT_KEY}` } })).status === 200) ckoFound++;
  t.equal(ckoFound, ckoTaken.length, `every acknowledged Checkout.com payment is found (${ckoTaken.length})`);
  let unseen = 0;
  for (const a of refused) if ((await lookup(sim, a.key)).body.fenced === true) unseen++;
  t.equal(unseen, refused.length, "every refused payment was never taken (its key is unseen)");
});

t.test("a ledger that starts with a torn last line: dropped with a log line, the next entry on a line of its own", async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), "ledger-torn-"));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const start = (log: ReturnType<typeof recorder>["log"]) => startAcquirerSim({ dataDir, port: 0, keys: TEST_KEYS, log });
  let sim = await start(recorder().log);
  const first = await sale(sim, "torn-1");
  await sim.close();
  const file = join(dataDir, "ledger.jsonl");
  const whole = readFileSync(file, "utf8");
  writeFileSync(file, `${whole}{"t":"payment","p":{"acquirer":"sim-a","key":"torn-2","id":"sim-a-a1`);

  const { lines, log } = recorder();
  sim = await start(log);
  t.teardown(() => sim.close());
  t.ok(
    lines.some((l) => l.level === "warn" && /torn last line/.test(l.message)),
    "the drop is logged",
  );
  t.match((await lookup(sim, "torn-1")).body, { id: first.body.id, status: "approved" }, "the whole line before it stands");
  t.match((await lookup(sim, "torn-2")).body, { fenced: true }, "the torn payment was never taken");
  const next = await sale(sim, "torn-3");
  t.equal(next.status, 200);
  const text = readFileSync(file, "utf8");
  t.notMatch(text, /"id":"sim-a-a1\{/, "nothing was written onto the torn bytes");
  t.ok(
    text
      .trimEnd()
      .split("\n")
      .every((l) => JSON.parse(l)),
    "every line parses",
  );
});
