/**
 * The data disk fills under load (issue 31, point 6: every client got HTTP
 * 500, status -1): the engine's own embedded Postgres on a small tmpfs this
 * file mounts, sales sent by a few clients until a filler file takes the rest
 * of the space, then the filler removed. Every reply is either an approval
 * that is then really in the database, or a retryable refusal: 503 with
 * `Retry-After` and the catalogue's status -2, never a 500; and sales succeed
 * again once space is back, with no restart. Bounded in sales and time;
 * 127.0.0.1 only. Needs root for `mount` (the tests run as root); skipped,
 * saying why, when mounting is impossible or Postgres is not embedded.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync, chmodSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import t from "tap";
import { useService } from "../support/service.ts";
import { sign, saleBody } from "../support/wire.ts";
import { until } from "../support/until.ts";

/** The tmpfs the cluster lives on: big enough for initdb, the migrations and a few WAL segments. */
const TMPFS_MB = 256;
const CLIENTS = 8;
const MAX_SALES = 3000;
const FULL_FOR_MS = 8000;

function mountTmpfs(): { dir: string } | { skip: string } {
  if (process.env.DATABASE_URL) return { skip: "needs the embedded Postgres, on a disk this file mounts (DATABASE_URL is set)" };
  const dir = mkdtempSync(join(tmpdir(), "cashier-diskfull-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_MB}m,mode=0755`, "tmpfs", dir], { stdio: "pipe" });
    return { dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs (${String((err as { stderr?: Buffer }).stderr ?? err).trim()}): needs root` };
  }
}

const mounted = mountTmpfs();
if ("skip" in mounted) {
  t.plan(0, mounted.skip);
} else {
  const dataDir = join(mounted.dir, "data");
  t.teardown(() => {
    try {
      execFileSync("umount", ["-l", mounted.dir], { stdio: "pipe" });
    } finally {
      rmSync(mounted.dir, { recursive: true, force: true });
    }
  });
  // Its own cluster, on the tmpfs: CASHIER_DATA_DIR holds the embedded Postgres (pg/).
  const service = useService(t, () => ({ CASHIER_DATA_DIR: dataDir }), { ownCluster: true });

  interface Answer {
    http: number;
    status: unknown;
    transactionStatus: unknown;
    traceId: unknown;
    retryAfter: string | null;
    text: string;
  }
  const sale = async (): Promise<Answer> => {
    const res = await fetch(`${service().edgeUrl}/api/process`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sign(saleBody())),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch {}
    return {
      http: res.status,
      status: body.status,
      transactionStatus: body.transaction_status,
      traceId: body.trace_id,
      retryAfter: res.headers.get("retry-after"),
      text,
    };
  };

  t.test("a full data disk: 503 with Retry-After or a real approval, then sales again once space is back", async (t) => {
    t.equal((await sale()).http, 200, "a sale before the disk fills");
    const filler = join(mounted.dir, "filler");
    const { bavail, bsize } = statfsSync(mounted.dir);
    // All but 1 MB: the cluster's next WAL segment or table extension finds no room.
    const leave = 1024 * 1024;
    const fill = Math.max(0, bavail * bsize - leave);
    const chunk = Buffer.alloc(4 * 1024 * 1024);
    writeFileSync(filler, "");
    chmodSync(filler, 0o600);
    for (let written = 0; written < fill; written += chunk.length) {
      try {
        writeFileSync(filler, chunk.subarray(0, Math.min(chunk.length, fill - written)), { flag: "a" });
      } catch {
        break;
      }
    }

    const answers: Answer[] = [];
    let firstRefusalAt = 0;
    const started = Date.now();
    const client = async () => {
      while (answers.length < MAX_SALES && Date.now() - started < 60_000 && !(firstRefusalAt && Date.now() - firstRefusalAt > FULL_FOR_MS)) {
        const a = await sale();
        answers.push(a);
        if (a.http !== 200 && !firstRefusalAt) firstRefusalAt = Date.now();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const refused = answers.filter((a) => a.http !== 200);
    t.ok(refused.length > 0, `the disk filled: ${refused.length} of ${answers.length} sales refused`);
    const wrong = answers.filter((a) => !(a.http === 200 && a.status === 0) && !(a.http === 503 && a.status === -2 && a.retryAfter !== null));
    t.same(
      wrong.slice(0, 3).map((a) => `${a.http} ${a.text}`),
      [],
      `every reply is an answer or a 503 with Retry-After and status -2 (${wrong.length} others)`,
    );
    t.notOk(
      refused.some((a) => /ENOSPC|No space|pg_|Error/.test(a.text)),
      "no internals in a refusal",
    );
    t.match(service().logs(), /"code":"53100"|No space left on device/, "the refusals were the full disk's (logged by the engine)");

    unlinkSync(filler);
    const back = await until(async () => (await sale()).http === 200, 60_000, 500);
    t.equal(back, true, "sales succeed again once space is back, with no restart");

    // Every approval the clients were given is in the database, once.
    const approved = answers.filter((a) => a.http === 200 && a.transactionStatus === "approved").map((a) => Number(a.traceId));
    const db = new pg.Client({ connectionString: service().engine.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ trace_id: number; status: string }>("select trace_id, status from transaction where trace_id = any($1)", [approved]);
      const found = new Map(rows.map((r) => [r.trace_id, r.status]));
      const lost = approved.filter((id) => found.get(id) !== "approved");
      t.same(lost, [], `all ${approved.length} approvals are in the database as approved`);
    } finally {
      await db.end();
    }
  });
}
