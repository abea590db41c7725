/**
 * `npm run audit-check`: verifies the audit log's hash chain on the engine's
 * database (store/command-database.ts). Exit 0 and the number of rows when
 * every row matches; exit 1 naming the first row that does not.
 */
import { loadConfig } from "./config.ts";
import { PgAuditStore } from "./store/audit-store.ts";
import { openCommandDatabase } from "./store/command-database.ts";

const db = await openCommandDatabase(loadConfig(), (m) => process.stderr.write(`${m}\n`));
let code = 0;
try {
  const v = await new PgAuditStore(db.orm, db.keys.auditChain).verify();
  if (v.intact) {
    process.stdout.write(`audit chain intact: ${v.checked} rows\n`);
    if (v.unkeyed > 0)
      process.stdout.write(
        `the first ${v.unkeyed} rows carry plain hashes (written before the chain was keyed): whoever can write the database could rewrite those\n`,
      );
  } else {
    process.stdout.write(`audit chain BROKEN at row ${v.firstBrokenId}: ${v.problem} (${v.checked} rows before it are intact)\n`);
    code = 1;
  }
} finally {
  await db.close();
}
process.exit(code);
