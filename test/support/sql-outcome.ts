/**
 * One statement on a connection of its own, for tests of who may do what: "done",
 * or the SQLSTATE Postgres refused it with (42501 for want of privilege, 28P01
 * for a wrong password, ...), so that a test compares outcomes, not exceptions.
 */
import pg from "pg";

export async function sqlOutcome(connection: string | pg.ClientConfig, sql = "select 1"): Promise<string> {
  const client = new pg.Client(connection);
  try {
    await client.connect();
    await client.query(sql);
    return "done";
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.end().catch(() => {});
  }
}
