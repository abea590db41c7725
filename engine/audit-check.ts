/**
 * `npm run audit-check`: verifies the audit log's hash chain on the engine's
 * database (store/command-database.ts). Exit 0 and the number of rows when
 * every row matches and no signed checkpoint of the chain's head names a row
 * the chain lacks; exit 1 naming the first row that does not (for a cut
 * tail, the first row missing and the checkpoint that vouched for it).
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "./shared/config/env-file.ts";
import { loadConfig } from "./shared/config/config.ts";
import { PgAuditStore } from "./console/store/audit-store.ts";
import { openCommandDatabase } from "./store/command-database.ts";

const db = await openCommandDatabase(loadConfig(), (m) => process.stderr.write(`${m}\n`));
let code = 0;
try {
  const v = await new PgAuditStore(db.orm, db.keys.auditChain).verify();
  if (v.intact)
    process.stdout.write(
      `audit chain intact: ${v.checked} rows${v.anchor ? `; its head matches the checkpoint of row ${v.anchor.rowId} (${v.anchor.at.toISOString()})` : "; no checkpoint yet"}\n`,
    );
  else {
    process.stdout.write(`audit chain BROKEN at row ${v.firstBrokenId}: ${v.problem} (${v.checked} rows before it are intact)\n`);
    code = 1;
  }
} finally {
  await db.close();
}
process.exit(code);
