/**
 * `npm run operator -- create <login> --role <role> [--merchant <id>...]`,
 * `disable <login>`, `reset <login>`, `list`: Backoffice operators from the
 * command line, on the engine's database (store/command-database.ts), with
 * the same use cases and audit rows as AdminService (actor cli:<user>).
 * create and reset print the one-time enrolment link under
 * BACKOFFICE_PUBLIC_URL (default http://127.0.0.1:$BACKOFFICE_PORT).
 *
 * Dual control's bootstrap: while no admin exists (none active or enrolling),
 * the command gives the payouts or admin role at once; that is how the first
 * admin is made. Once one exists, it works as an admin does: a change giving
 * payout rights is proposed, and applied when an admin makes the same change
 * in the console (or when the command makes the same change an admin
 * proposed: the command's user is the second person then).
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "./shared/config/env-file.ts";
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { loadConfig } from "./shared/config/config.ts";
import { createOperator, disableOperator, resetOperator, type OperatorResult } from "./console/app/operator-admin.ts";
import { ConsoleRefusal } from "./console/domain/console-rules.ts";
import type { BackofficeDeps } from "./console/ports/ports.ts";
import { systemClock } from "./shared/runtime/clock.ts";
import { PgAuditStore } from "./console/store/audit-store.ts";
import { PgBackofficeStore } from "./console/store/backoffice-store.ts";
import { openCommandDatabase } from "./store/command-database.ts";
import { PgMerchantStore } from "./payments/store/merchant-store.ts";
import { pgOperatorAccounts } from "./console/store/operator-accounts.ts";

const USAGE = `usage:
  npm run operator -- create <login> --role viewer|support|payouts|admin [--merchant <id>]...
  npm run operator -- disable <login>
  npm run operator -- reset <login>
  npm run operator -- list`;

/** Where the enrolment links point: the console's public base. */
export function backofficeBase(env: NodeJS.ProcessEnv): string {
  const base = env.BACKOFFICE_PUBLIC_URL || `http://127.0.0.1:${env.BACKOFFICE_PORT || "8081"}`;
  return base.replace(/\/+$/, "");
}

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { role: { type: "string" }, merchant: { type: "string", multiple: true } },
  strict: false,
});
const [command, login] = positionals;
if (!command || !["create", "disable", "reset", "list"].includes(command)) fail(command ? `unknown command: ${command}` : "a command is required");
if (command !== "list" && !login) fail(`${command} needs a login`);

const config = loadConfig();
const db = await openCommandDatabase(config, (m) => process.stderr.write(`${m}\n`));
let code = 0;
try {
  const deps: BackofficeDeps = {
    operators: pgOperatorAccounts(db.orm),
    audit: new PgAuditStore(db.orm, db.keys.auditChain),
    backoffice: new PgBackofficeStore(db.orm),
    merchants: new PgMerchantStore(db.orm, db.keys.encryption),
    keys: db.keys,
    now: systemClock,
  };
  const actor = { name: `cli:${userInfo().username}` };
  // The bootstrap: dual control starts with the first admin.
  const rules = { dualControl: (await deps.operators.list()).some((o) => o.role === "admin" && (o.state === "active" || o.state === "enrolling")) };
  let result: OperatorResult | undefined;
  try {
    if (command === "create")
      result = await createOperator(deps, actor, login, String(values.role ?? ""), (values.merchant as string[] | undefined) ?? [], rules);
    else if (command === "disable") result = await disableOperator(deps, actor, login);
    else if (command === "reset") result = await resetOperator(deps, actor, login, rules);
  } catch (err) {
    if (!(err instanceof ConsoleRefusal)) throw err;
    result = { ok: false, error: { reason: "INVALID_STATE", message: err.message, violations: [] } };
  }
  if (command === "list") {
    for (const o of await deps.operators.list())
      process.stdout.write(
        `${o.login}\t${o.role}\t${o.state}\t${o.merchantIds.length > 0 ? o.merchantIds.join(",") : "(all merchants)"}${o.pending ? `\t(${o.pending.kind} to ${o.pending.role} proposed by ${o.pending.proposedBy})` : ""}\n`,
      );
  }
  if (result && !result.ok) {
    process.stderr.write(`refused: ${result.error.message}\n`);
    code = 1;
  } else if (result?.ok) {
    const o = result.operator;
    process.stdout.write(
      `operator ${o.login}: ${o.role}, ${o.state}, ${o.merchantIds.length > 0 ? `merchants ${o.merchantIds.join(", ")}` : "all merchants"}\n`,
    );
    if (result.dualControl === "proposed")
      process.stdout.write("proposed: an admin applies it by making the same change in the console (Operators); until then nothing of it applies\n");
    if (result.dualControl === "confirmed") process.stdout.write("confirmed: the change another admin proposed is applied; its link is theirs to hand over\n");
    if (result.enrolment) {
      const when = result.dualControl === "proposed" ? "one use, once confirmed" : `one use, until ${result.enrolment.expiresAt.toISOString()}`;
      process.stdout.write(`enrolment link (${when}):\n`);
      process.stdout.write(`${backofficeBase(process.env)}/enrol/${result.enrolment.token}\n`);
    }
  }
} finally {
  await db.close();
}
process.exit(code);
