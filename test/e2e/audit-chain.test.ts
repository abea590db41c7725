/**
 * The audit log against the running engine: sign-ins, failures, actions and
 * setting changes are written with operator, time, address and before/after
 * values; the database refuses UPDATE, DELETE and TRUNCATE of it, even from
 * its owner; each row is chained by an HMAC under a key the database never
 * holds, so that `npm run audit-check` (and VerifyAuditChain) passes on the
 * real log and, after a superuser drops the trigger and changes or removes a
 * row, names the first broken row, also when the superuser recomputes every
 * hash after it, or cuts rows from the chain's end (a signed checkpoint of
 * the head, kept in audit_checkpoint, names them).
 * Listing and export are for admins only.
 */
import { createHash, createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { AuditOutcome } from "../../gen/cashier/admin/v1/audit_pb.js";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { backofficeClient, ctx, enrolOperator, runAuditCheck } from "../support/operators.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
let original = "";
const bo = () => backofficeClient(svc().engineUrl);

async function sqlError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "";
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

t.test("actions are audited with who, when, where and before/after; admins list them", async (t) => {
  const admin = await enrolOperator(svc(), bo(), clock, "auditor", "admin");
  const viewer = await enrolOperator(svc(), bo(), clock, "watcher", "viewer");
  await bo().setFourEyesThresholds({
    context: ctx(admin.sessionToken, "203.0.113.9"),
    merchantId: "m-test",
    thresholds: [{ amountMinor: 50_000n, currency: "USD" }],
  });
  const list = await bo().listAuditEntries({ context: ctx(admin.sessionToken), action: "merchant." });
  const change = list.entries.find((e) => e.action === "merchant.four_eyes");
  t.equal(change?.actor, "auditor");
  t.equal(change?.clientAddress, "203.0.113.9");
  t.equal(change?.merchantId, "m-test");
  t.equal(change?.beforeJson, "[]");
  t.equal(change?.afterJson, '[{"amountMinor":50000,"currency":"USD"}]');
  t.equal(change?.outcome, AuditOutcome.SUCCESS);
  t.match(change?.hash, /^k1:[0-9a-f]{64}$/, "keyed");
  const signIns = await bo().listAuditEntries({ context: ctx(admin.sessionToken), action: "session.start" });
  t.ok(signIns.entries.length >= 2, "session starts are there");

  const refused = await bo()
    .listAuditEntries({ context: ctx(viewer.sessionToken) })
    .then(() => undefined)
    .catch((err: unknown) => ConnectError.from(err).code);
  t.equal(refused, Code.PermissionDenied, "a viewer cannot read the audit log");

  const exported = await bo().listAuditEntries({ context: ctx(admin.sessionToken), export: true, pageSize: 1000 });
  t.ok(exported.entries.length > 5);
  const again = await bo().listAuditEntries({ context: ctx(admin.sessionToken), action: "audit.export" });
  t.equal(again.entries.length, 1, "the export itself is audited");
  // Pages follow each other without a gap.
  const p1 = await bo().listAuditEntries({ context: ctx(admin.sessionToken), pageSize: 3 });
  const p2 = await bo().listAuditEntries({ context: ctx(admin.sessionToken), pageSize: 3, pageToken: p1.nextPageToken });
  t.equal(p2.entries[0].id, p1.entries[2].id - 1n);
});

t.test("text cut through an emoji, or a lone half of one, is hashed as it is stored: the chain stays intact", async (t) => {
  const viewer = await enrolOperator(svc(), bo(), clock, "emoji-viewer", "viewer");
  const admin = await enrolOperator(svc(), bo(), clock, "emoji-admin", "admin");
  // Refused by role: the row's target is the merchant id cut at 64, through the emoji's two halves.
  await bo()
    .setFourEyesThresholds({ context: ctx(viewer.sessionToken), merchantId: `${"m".repeat(63)}\u{1F600}`, thresholds: [] })
    .catch(() => {});
  await bo()
    .resetOperator({ context: ctx(admin.sessionToken), login: `x\ud800y` })
    .catch(() => {});
  const v = await bo().verifyAuditChain({ context: ctx(admin.sessionToken) });
  t.equal(v.intact, true, `intact (${v.problem})`);
  const [row] = await svc().sql<{ target: string }>("select target from audit_log where actor = 'emoji-viewer' order by id desc limit 1");
  t.equal(row.target, `merchant:${"m".repeat(63)}\uFFFD`, "the half written as U+FFFD, as Postgres keeps it");
});

t.test("the database refuses UPDATE, DELETE and TRUNCATE of the audit log", async (t) => {
  t.match(await sqlError(svc().sql("update audit_log set detail = 'x' where id = 1")), /append-only: UPDATE refused/);
  t.match(await sqlError(svc().sql("delete from audit_log where id = 1")), /append-only: DELETE refused/);
  t.match(await sqlError(svc().sql("truncate audit_log")), /append-only: TRUNCATE refused/);
});

t.test("audit-check passes on the real chain and names the first row a superuser changed", async (t) => {
  const ok = await runAuditCheck(svc());
  t.equal(ok.code, 0, ok.stdout);
  t.match(ok.stdout, /audit chain intact: \d+ rows/);
  const admin = await enrolOperator(svc(), bo(), clock, "checker", "admin");
  t.equal((await bo().verifyAuditChain({ context: ctx(admin.sessionToken) })).intact, true);

  // A superuser hides a failed sign-in: drops the guard, edits row 3, puts the guard back.
  original = (await svc().sql<{ actor: string }>("select actor from audit_log where id = 3"))[0].actor;
  await svc().sql("alter table audit_log disable trigger audit_log_no_update_delete");
  await svc().sql("update audit_log set actor = 'someone-else' where id = 3");
  await svc().sql("alter table audit_log enable trigger audit_log_no_update_delete");
  const bad = await runAuditCheck(svc());
  t.equal(bad.code, 1);
  t.match(bad.stdout, /audit chain BROKEN at row 3: its content does not match its hash/);
  const v = await bo().verifyAuditChain({ context: ctx(admin.sessionToken) });
  t.equal(v.intact, false);
  t.equal(v.firstBrokenId, 3n);
});

t.test("a superuser who rewrites rows and recomputes every hash is found: the hashes are keyed", async (t) => {
  const admin = await enrolOperator(svc(), bo(), clock, "rechainer", "admin");
  const rows = await svc().sql<Record<string, any>>("select * from audit_log order by id");
  const { auditHash, canonicalAudit, GENESIS_HASH } = await import("../../engine/console/domain/audit-chain.ts");
  const { toRow } = await import("../../engine/console/store/audit-store.ts");
  // The row as the chain reads it, with row 3's actor rewritten.
  const toContent = (r: Record<string, any>) => {
    const row = toRow(r as never);
    return { ...row, actor: row.id === 3 ? "someone-else" : row.actor };
  };
  /** Row 3 rewritten and every hash from row `from` recomputed by `hashOf`, triggers off for the transaction, as a superuser can. */
  const rewrite = async (from: number, hashOf: (prev: string, c: ReturnType<typeof toContent>) => string) => {
    const statements = ["begin", "set local session_replication_role = replica", "update audit_log set actor = 'someone-else' where id = 3"];
    let prev = from === 1 ? GENESIS_HASH : String(rows[from - 2].hash);
    for (const r of rows.slice(from - 1)) {
      const hash = hashOf(prev, toContent(r));
      statements.push(`update audit_log set prev_hash = '${prev}', hash = '${hash}' where id = ${Number(r.id)}`);
      prev = hash;
    }
    statements.push("commit");
    await svc().sql(statements.join(";\n"));
  };
  const restore = async () => {
    const back = ["begin", "set local session_replication_role = replica"];
    for (const r of rows) {
      const actor = Number(r.id) === 3 ? original : String(r.actor);
      back.push(`update audit_log set actor = '${actor.replace(/'/g, "''")}', prev_hash = '${r.prev_hash}', hash = '${r.hash}' where id = ${Number(r.id)}`);
    }
    back.push("commit");
    await svc().sql(back.join(";\n"));
  };
  // With a key of their own from row 3 on: the content no longer matches the engine's key.
  const theirs = createSecretKey(randomBytes(32));
  await rewrite(3, (prev, c) => auditHash(prev, c, theirs));
  let bad = await runAuditCheck(svc());
  t.equal(bad.code, 1, "audit-check fails");
  t.match(bad.stdout, /BROKEN at row 3: its content does not match its hash/);
  // The whole chain from row 1 with plain SHA-256, as a version before keyed hashes wrote it: not keyed.
  await rewrite(1, (prev, c) => createHash("sha256").update(prev).update("\n").update(canonicalAudit(c)).digest("hex"));
  bad = await runAuditCheck(svc());
  t.match(bad.stdout, /BROKEN at row 1: its hash is not keyed/);
  const v = await bo().verifyAuditChain({ context: ctx(admin.sessionToken) });
  t.same([v.intact, v.firstBrokenId], [false, 1n], "the console too");
  await restore();
  t.equal((await runAuditCheck(svc())).code, 0, "restored as written, intact again");
});

t.test("the chain's head is anchored apart: rows cut from its end are found, naming the checkpoint that saw them", async (t) => {
  const starts = await svc().sql<{ row_id: string; mac: string }>("select row_id, mac from audit_checkpoint where reason = 'start'");
  t.ok(starts.length >= 1, "the engine signed the head at its start");
  t.match(starts[0].mac, /^c1:[0-9a-f]{64}$/);
  t.match(await sqlError(svc().sql("update audit_checkpoint set row_id = 0")), /insert-only: UPDATE refused/);
  t.match(await sqlError(svc().sql("delete from audit_checkpoint")), /insert-only: DELETE refused/);
  t.match(await sqlError(svc().sql("truncate audit_checkpoint")), /insert-only: TRUNCATE refused/);

  const admin = await enrolOperator(svc(), bo(), clock, "tail-keeper", "admin");
  const ok = await runAuditCheck(svc());
  t.equal(ok.code, 0, ok.stdout);
  const [{ last }] = await svc().sql<{ last: string }>("select max(id) as last from audit_log");
  t.match(ok.stdout, new RegExp(`audit chain intact: ${last} rows; its head matches the checkpoint of row ${last} `), "anchored at the last row");

  // A superuser removes the two newest rows, triggers off: what is left is a shorter chain, intact in itself.
  const cutFrom = Number(last) - 1;
  await svc().sql(`begin; set local session_replication_role = replica; delete from audit_log where id >= ${cutFrom}; commit`);
  const bad = await runAuditCheck(svc());
  t.equal(bad.code, 1, "audit-check fails");
  t.match(
    bad.stdout,
    new RegExp(
      `audit chain BROKEN at row ${cutFrom}: the chain ends at row ${cutFrom - 1}, but a checkpoint signed at \\S+ names row ${last}: rows ${cutFrom} to ${last} were removed from its end`,
    ),
  );
  // The console's check says the same (its own call appends no row: reading the log writes nothing).
  const v = await bo().verifyAuditChain({ context: ctx(admin.sessionToken) });
  t.same([v.intact, v.firstBrokenId], [false, BigInt(cutFrom)]);
  t.match(v.problem, /were removed from its end/);

  // A checkpoint forged beyond the end (without the key) is named as forged, not believed.
  await svc().sql(
    `insert into audit_checkpoint (at, row_id, row_hash, reason, mac) values (now(), ${Number(last) + 50}, 'k1:00', 'row', 'c1:${"0".repeat(64)}')`,
  );
  t.match((await runAuditCheck(svc())).stdout, /is not signed with the chain's key \(forged or changed\)/);
});

t.test("a removed row is found too", async (t) => {
  await svc().sql("alter table audit_log disable trigger audit_log_no_update_delete");
  await svc().sql("update audit_log set actor = $1 where id = 3", [original]);
  await svc().sql("delete from audit_log where id = 5");
  await svc().sql("alter table audit_log enable trigger audit_log_no_update_delete");
  const bad = await runAuditCheck(svc());
  t.equal(bad.code, 1);
  t.match(bad.stdout, /BROKEN at row 5: row 5 is missing/, "row 3 restored: the gap at 5 is what breaks");
});
