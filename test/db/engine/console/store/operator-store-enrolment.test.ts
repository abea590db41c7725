/**
 * The operator store's conditional updates on a real database (in process):
 * an enrolment's password step is taken once and only through the link that
 * is current, so a request on a link reset while its password was being
 * hashed writes nothing; activation needs the TOTP secret the code was
 * checked against; a password attempt is reserved only while attempts are
 * left and the account is active and unlocked.
 */
import t from "tap";
import { pgOperatorAccounts } from "../../../../../engine/console/store/operator-accounts.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
const now = new Date("2026-11-26T10:00:00Z");
const later = new Date("2026-11-29T10:00:00Z");

t.test("a reset link's holder cannot set the new enrolment's password; the current link can, once", async (t) => {
  const ops = pgOperatorAccounts(engine().orm);
  await ops.transaction((tx) =>
    ops.create({ login: "nia", role: "viewer", merchantIds: [], createdBy: "test", enrolHash: "link-a", enrolExpiresAt: later, now }, tx),
  );
  // An admin resets the enrolment while a request on link A is still hashing its password.
  await ops.transaction((tx) => ops.reset("nia", "admin", "link-b", later, now, tx));
  t.equal(
    await ops.transaction((tx) => ops.setEnrolmentSecrets("nia", "link-a", "hash-a", "sealed-a", "browser-a", now, tx)),
    false,
    "the old link writes nothing",
  );
  t.equal(
    await ops.transaction((tx) => ops.setEnrolmentSecrets("nia", "link-b", "hash-b", "sealed-b", "browser-b", now, tx)),
    true,
    "the current link sets it",
  );
  t.equal(await ops.transaction((tx) => ops.setEnrolmentSecrets("nia", "link-b", "hash-c", "sealed-c", "browser-c", now, tx)), false, "once");
  t.equal(await ops.transaction((tx) => ops.activate("nia", "sealed-a", [], 1, now, tx)), false, "activation with another secret than the one set");
  t.equal(await ops.transaction((tx) => ops.activate("nia", "sealed-b", [], 1, now, tx)), true, "activation with the secret the code was checked against");
  t.equal(await ops.transaction((tx) => ops.activate("nia", "sealed-b", [], 2, now, tx)), false, "once");
  const [row] = await engine().sql<{ password_hash: string; state: string; enrol_browser_hash: string }>(
    "select password_hash, state, enrol_browser_hash from operator where login = 'nia'",
  );
  t.same(row, { password_hash: "hash-b", state: "active", enrol_browser_hash: "browser-b" }, "bound to the browser that set the password");
});

t.test("a password attempt is reserved only while some are left, for an active account that is not locked", async (t) => {
  const ops = pgOperatorAccounts(engine().orm);
  await ops.transaction((tx) =>
    ops.create({ login: "oli", role: "viewer", merchantIds: [], createdBy: "test", enrolHash: "link-o", enrolExpiresAt: later, now }, tx),
  );
  t.equal(await ops.reserveAttempt("oli", 3, now), false, "not while enrolling");
  t.equal(await ops.reserveAttempt("nobody-here", 3, now), false, "nor for no one");
  await engine().sql("update operator set state = 'active' where login = 'oli'");
  const taken = [
    await ops.reserveAttempt("oli", 3, now),
    await ops.reserveAttempt("oli", 3, now),
    await ops.reserveAttempt("oli", 3, now),
    await ops.reserveAttempt("oli", 3, now),
  ];
  t.same(taken, [true, true, true, false], "three of three, then none");
  await ops.releaseAttempt("oli");
  t.equal(await ops.reserveAttempt("oli", 3, now), true, "a right password gives its attempt back");
  const locked = await ops.transaction((tx) => ops.lockWhenSpent("oli", 3, later, tx));
  t.same(locked, { locked: true }, "all spent: locked, the count starts again");
  t.equal(await ops.reserveAttempt("oli", 3, now), false, "none while locked");
  t.equal(await ops.reserveAttempt("oli", 3, later), true, "open again once the lock ends");
});
