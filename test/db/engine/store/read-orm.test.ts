/**
 * The read pool (engine/store/read-orm.ts) on a migrated database of this file's own, its URL reaching a primary
 * (as a pooler's replica port may after a failover, or a mistaken DATABASE_READ_URL): every session is read-only,
 * so a write that strayed onto the read path is refused by Postgres (25006), inside a transaction or not; the
 * search and the dashboard, which the replica serves, run there; the reads sign in as the database's service role
 * when the read URL names the primary's owner, and as the URL's own user otherwise. The router measures no lag on a
 * server that is not in recovery. A real streaming replica is in test/e2e/edge/backoffice/read-replica.test.ts.
 */
import t from "tap";
import type { MikroORM } from "@mikro-orm/postgresql";
import { PgBackofficeStore } from "../../../../engine/console/store/backoffice-store.ts";
import { PgOrderStore } from "../../../../engine/payments/store/order-store.ts";
import { migrate, openOrm } from "../../../../engine/store/orm.ts";
import { openReadOrm, READ_APPLICATION_NAME, readServingUrl } from "../../../../engine/store/read-orm.ts";
import { replicaReads } from "../../../../engine/store/replica-reads.ts";
import { prepareServiceRole, serviceRoleName, serviceRoleUrl } from "../../../../engine/store/service-role.ts";
import { acquireDatabase } from "../../../support/test-database.ts";

const db = await acquireDatabase();
t.teardown(() => db.release());
const owner = await openOrm(db.url, () => {}, { bounded: false });
t.teardown(() => owner.close());
await migrate(owner, () => {});
const serving = (await prepareServiceRole(owner, db.url)).url ?? db.url;

const opened: MikroORM[] = [];
t.teardown(async () => {
  for (const orm of opened) await orm.close();
});
async function readPool(url: string): Promise<MikroORM> {
  const orm = await openReadOrm(url, () => {});
  opened.push(orm);
  return orm;
}

/** What Postgres answered a statement on `orm`: "done" or the SQLSTATE it refused it with. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "done";
  } catch (err) {
    for (let e: unknown = err; e && typeof e === "object"; e = (e as { previous?: unknown; cause?: unknown }).previous ?? (e as { cause?: unknown }).cause)
      if (typeof (e as { code?: unknown }).code === "string") return (e as { code: string }).code;
    return String(err);
  }
}

t.test("which user the reads sign in as", async (t) => {
  t.equal(serving, serviceRoleUrl(db.url), "the primary serves as its service role here");
  const replicaUrl = db.url.replace(/@[^/]+\//, "@replica.internal:5433/");
  t.equal(readServingUrl(replicaUrl, db.url, serving), serviceRoleUrl(replicaUrl), "the owner's URL: the service role, on the replica's host");
  const other = replicaUrl.replace(/\/\/[^@]+@/, "//reporting:pw@");
  t.equal(readServingUrl(other, db.url, serving), other, "another user: as given");
  t.equal(readServingUrl(replicaUrl, db.url, db.url), replicaUrl, "a primary serving as the URL's own user: as given");
});

t.test("every read session is read-only: writes are refused, reads run", async (t) => {
  const reads = await readPool(readServingUrl(db.url, db.url, serving));
  const exec = (sql: string) => reads.em.fork().execute(sql);
  const [s] = await exec("select current_user as who, current_setting('default_transaction_read_only') as ro, current_setting('application_name') as app");
  t.same(s, { who: serviceRoleName(db.name), ro: "on", app: READ_APPLICATION_NAME });

  t.equal(await outcome(exec("update recovery_watermark set scanned_to = scanned_to")), "25006", "an update");
  t.equal(
    await outcome(exec("insert into payout_first_approval (trace_id, login, reason, note, approved_at) values (1, 'x', 'x', '', now())")),
    "25006",
    "an insert",
  );
  t.equal(
    await outcome(reads.em.fork().transactional((tx) => tx.execute("delete from payout_first_approval"))),
    "25006",
    "a write inside a transaction the ORM opened",
  );
  t.equal(await outcome(new PgBackofficeStore(reads).forgetFirstApproval(1)), "25006", "a store's write");

  // What the replica serves: the search and the dashboard, as the engine calls them.
  const orders = new PgOrderStore(reads);
  t.same((await orders.list({ limit: 10 })).rows, [], "the search runs");
  const now = new Date();
  const dash = await new PgBackofficeStore(reads).dashboard(undefined, new Date(now.getTime() - 3_600_000), now, now);
  t.same(dash.volume, [], "the dashboard runs");
});

t.test("a URL that reaches a primary: read there, with no lag", async (t) => {
  const reads = await readPool(readServingUrl(db.url, db.url, serving));
  const primary = await openOrm(serving, () => {});
  opened.push(primary);
  const router = replicaReads({
    primary: { db: "primary" },
    primaryQuery: (sql) => primary.em.fork().execute(sql),
    replica: { ports: { db: "replica" }, query: (sql) => reads.em.fork().execute(sql) },
    log: { warn: () => t.fail("no warning"), info: () => {} },
    onFallback: () => t.fail("no fallback"),
  });
  t.same(await router.read(async (p) => p.db), { value: "replica", source: { replica: true, lagMs: 0 } });
  t.equal(await router.lag(), 0);
});

t.test("a read URL nobody answers at: the router reads the primary", async (t) => {
  const reads = await readPool(db.url.replace(/@[^/]+\//, "@127.0.0.1:1/"));
  const primary = await openOrm(serving, () => {});
  opened.push(primary);
  const fallbacks: string[] = [];
  const warnings: object[] = [];
  const router = replicaReads({
    primary: new PgOrderStore(primary),
    primaryQuery: (sql) => primary.em.fork().execute(sql),
    replica: { ports: new PgOrderStore(reads), query: (sql) => reads.em.fork().execute(sql) },
    log: { warn: (f) => warnings.push(f), info: () => {} },
    onFallback: (r) => fallbacks.push(r),
  });
  const r = await router.read((orders) => orders.list({ limit: 1 }));
  t.same(r.source, { replica: false, lagMs: 0 });
  t.same(fallbacks, ["unavailable"]);
  t.match(warnings, [{ reason: "ECONNREFUSED" }]);
});
