/**
 * The template every test database is cloned from: an empty database with
 * the committed migrations applied, made once per run, then closed to
 * connections (a template being copied must have none).
 */
import { migrate, openOrm } from "../../../engine/store/orm.ts";
import { adminQuery, withDatabase } from "../test-database.ts";

export async function makeTemplate(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `drop database if exists ${name}`);
  await adminQuery(adminUrl, `create database ${name}`);
  const orm = await openOrm(withDatabase(adminUrl, name), () => {}, { poolSize: 1, bounded: false });
  try {
    await migrate(orm, () => {});
  } finally {
    await orm.close();
  }
  await adminQuery(adminUrl, `alter database ${name} with is_template true allow_connections false`);
}

/** Drops a template made by makeTemplate (on DATABASE_URL, where the cluster outlives the run). */
export async function dropTemplate(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `alter database ${name} with is_template false`);
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}
