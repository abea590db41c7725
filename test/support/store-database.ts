/**
 * The opening of a store test on a real Postgres: a test database
 * (processes.ts), an ORM on it as the engine opens one (unbounded: a slow
 * machine fails no query), the committed migrations run; both closed when the
 * test `t` ends.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { migrate, openOrm } from "../../engine/store/orm.ts";
import { type TestDatabase, testDatabase } from "./processes.ts";

export async function migratedDatabase(t: { teardown(fn: () => unknown): void }): Promise<{ db: TestDatabase; orm: MikroORM }> {
  const db = await testDatabase();
  t.teardown(() => db.stop());
  const orm = await openOrm(db.url, () => {}, { bounded: false });
  t.teardown(() => orm.close());
  await migrate(orm, () => {});
  return { db, orm };
}
