/**
 * The audit chain's rules on rows built in memory: a chain built by the rules
 * checks out; a changed field, a changed previous hash, a removed row or rows
 * out of order are each found, at the right row; rows rehashed by someone
 * without the key are found, also when the whole chain is rewritten with
 * plain SHA-256 hashes.
 */
import { createHash, createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import {
  type AuditRow,
  auditHash,
  canonicalAudit,
  canonicalJson,
  GENESIS_HASH,
  startWalk,
  walkChain,
} from "../../../../../engine/console/domain/audit-chain.ts";

const KEY = createSecretKey(randomBytes(32));

function chain(n: number): AuditRow[] {
  const rows: AuditRow[] = [];
  let prev = GENESIS_HASH;
  for (let id = 1; id <= n; id++) {
    const c = {
      id,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)),
      actor: `op${id}`,
      action: "payout.approve",
      outcome: "success" as const,
      merchantId: "m-1",
      target: `trace_id:${id}`,
      clientAddress: "198.51.100.1",
      beforeJson: '{"status":"requested"}',
      afterJson: '{"status":"pending"}',
      detail: "",
    };
    const hash = auditHash(prev, c, KEY);
    rows.push({ ...c, prevHash: prev, hash });
    prev = hash;
  }
  return rows;
}

const check = (rows: AuditRow[], batch = 2) => {
  const walk = startWalk();
  for (let i = 0; i < rows.length; i += batch) {
    const broken = walkChain(walk, rows.slice(i, i + batch), KEY);
    if (broken) return broken;
  }
  return { id: 0, problem: "" };
};

t.test("an intact chain checks out, in any batch size", async (t) => {
  for (const batch of [1, 2, 5, 100]) t.same(check(chain(7), batch), { id: 0, problem: "" });
  t.match(chain(1)[0].hash, /^k1:[0-9a-f]{64}$/, "keyed");
});

t.test("whoever rewrites rows without the key is found", async (t) => {
  const other = createSecretKey(randomBytes(32));
  const forged = chain(5);
  // The database's superuser rewrites row 3 and every hash after it, as the old unkeyed chain allowed.
  forged[2] = { ...forged[2], actor: "someone-else" };
  for (let i = 2; i < forged.length; i++) {
    const prevHash = i === 0 ? GENESIS_HASH : forged[i - 1].hash;
    forged[i] = { ...forged[i], prevHash, hash: auditHash(prevHash, forged[i], other) };
  }
  t.same(check(forged), { id: 3, problem: "its content does not match its hash (the row was changed)" }, "with a key of their own");
  // Or the whole chain rewritten from row 1 with plain SHA-256, as an older version wrote it: refused at row 1.
  const plain = (prev: string, r: AuditRow) => createHash("sha256").update(prev).update("\n").update(canonicalAudit(r)).digest("hex");
  const rewritten = chain(5);
  let prev = GENESIS_HASH;
  for (let i = 0; i < rewritten.length; i++) {
    rewritten[i] = { ...rewritten[i], actor: i === 2 ? "someone-else" : rewritten[i].actor, prevHash: prev };
    rewritten[i].hash = plain(prev, rewritten[i]);
    prev = rewritten[i].hash;
  }
  t.same(
    check(rewritten),
    { id: 1, problem: "its hash is not keyed (rewritten without the key, or written by a version before keyed hashes)" },
    "or with plain hashes",
  );
});

t.test("tampering is found at the row it touched", async (t) => {
  const changed = chain(6);
  changed[3] = { ...changed[3], afterJson: '{"status":"cancelled"}' };
  t.equal(check(changed).id, 4);
  t.match(check(changed).problem, /content does not match/);

  const rehashed = chain(6);
  // Rehashing the changed row alone (even with the key) breaks the next row's link.
  rehashed[2] = { ...rehashed[2], actor: "x" };
  rehashed[2].hash = auditHash(rehashed[2].prevHash, rehashed[2], KEY);
  t.equal(check(rehashed).id, 4);
  t.match(check(rehashed).problem, /previous hash/);

  const removed = chain(6).filter((r) => r.id !== 4);
  t.equal(check(removed).id, 4);
  t.match(check(removed).problem, /row 4 is missing/);

  const time = chain(3);
  time[0] = { ...time[0], at: new Date(time[0].at.getTime() + 1) };
  t.equal(check(time).id, 1, "even a millisecond of time");
});

t.test("canonical JSON sorts keys and drops undefined", async (t) => {
  t.equal(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: 1, y: 2 }] } }), '{"a":{"c":[2,{"y":2,"z":1}]},"b":1}');
  t.equal(canonicalJson(undefined), "");
});
