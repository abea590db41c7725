/**
 * Backoffice operators for tests: a client of the console's services, the operator
 * command and the audit chain's check run as child processes on a service's
 * database, and an operator
 * enrolled through the real calls (password, TOTP confirmed with a real code)
 * and signed in. TOTP codes are single-use per 30 s step, so helpers that sign
 * in again move the service's clock to the next step.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ConsoleAuthService } from "../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { ConsoleSettingsService } from "../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ConsoleWorkService } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { ConsoleMoneyService } from "../../gen/cashier/admin/v1/console_money_service_pb.js";
import { OperatorRole } from "../../gen/cashier/admin/v1/operator_pb.js";
import { totpCode } from "../../engine/console/domain/operator-credentials.ts";
import type { MovableClock } from "./clock.ts";
import type { Service } from "./service.ts";
import { SERVICE_TOKEN } from "./service.ts";

export const CONSOLE_ORIGIN = "http://127.0.0.1:8081";
export const PASSWORD = "correct horse battery staple 42";
/** The enrolment key of the browser the tests enrol from (the console keeps one in a cookie): the enrolment is bound to it. */
export const BROWSER_KEY = "test-browser-enrolment-key-0123456789";

/**
 * The console's services (ConsoleAuthService, ConsoleWorkService, ConsoleSettingsService, ConsoleMoneyService) as one client, so
 * that a test calls `bo.signIn(...)` and `bo.decidePayout(...)` alike; each method still goes to its own service.
 */
export type BackofficeClient = Client<typeof ConsoleAuthService> &
  Client<typeof ConsoleWorkService> &
  Client<typeof ConsoleSettingsService> &
  Client<typeof ConsoleMoneyService>;

export function backofficeClient(engineUrl: string, token = SERVICE_TOKEN): BackofficeClient {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const transport = createGrpcTransport({ baseUrl: engineUrl, interceptors: [auth] });
  return {
    ...createClient(ConsoleAuthService, transport),
    ...createClient(ConsoleWorkService, transport),
    ...createClient(ConsoleSettingsService, transport),
    ...createClient(ConsoleMoneyService, transport),
  };
}

/** The console context of a call: session token (or none), a client address. */
export const ctx = (sessionToken = "", clientAddress = "198.51.100.7") => ({ sessionToken, clientAddress, userAgent: "test", origin: CONSOLE_ORIGIN });

/** `npm run operator -- <args>` on the service's database and dev key. */
export async function runOperatorCommand(svc: Service, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["engine/operator-cli.ts", ...args], {
      env: { ...process.env, DATABASE_URL: svc.engine.databaseUrl, CASHIER_DATA_DIR: svc.dataDir, BACKOFFICE_PUBLIC_URL: "https://backoffice.example" },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** `npm run audit-check` on the service's database: its exit code and what it printed. */
export async function runAuditCheck(svc: Service): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["engine/audit-check.ts"], {
      env: { ...process.env, DATABASE_URL: svc.engine.databaseUrl, CASHIER_DATA_DIR: svc.dataDir },
      timeout: 60_000,
    });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "" };
  }
}

export interface EnrolledOperator {
  login: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
  sessionToken: string;
}

const ROLES = { viewer: OperatorRole.VIEWER, support: OperatorRole.SUPPORT, payouts: OperatorRole.PAYOUTS, admin: OperatorRole.ADMIN } as const;

/** Creates (AdminService) and enrols an operator; it ends signed in. */
export async function enrolOperator(
  svc: Service,
  bo: BackofficeClient,
  clock: MovableClock,
  login: string,
  role: keyof typeof ROLES,
  merchantIds: string[] = [],
): Promise<EnrolledOperator> {
  const made = await svc.admin.createOperator({ login, role: ROLES[role], merchantIds, operator: "tests" });
  return enrolWithLink(bo, clock, login, made.enrolment?.token ?? "");
}

/** Follows an enrolment link (its token), as the person holding it does: password, TOTP; it ends signed in. */
export async function enrolWithLink(bo: BackofficeClient, clock: MovableClock, login: string, token: string): Promise<EnrolledOperator> {
  const set = await bo.setEnrolmentPassword({ context: ctx(), token, password: PASSWORD, browserKey: BROWSER_KEY });
  const secret = set.totp?.secretBase32 ?? "";
  const done = await bo.confirmEnrolmentTotp({ context: ctx(), token, code: totpCode(secret, login, clock.now()), browserKey: BROWSER_KEY });
  return { login, password: PASSWORD, totpSecret: secret, recoveryCodes: done.recoveryCodes, sessionToken: done.session?.sessionToken ?? "" };
}

/** Signs in with password and TOTP, first moving the clock to a step not used yet. */
export async function signInTotp(bo: BackofficeClient, clock: MovableClock, op: EnrolledOperator): Promise<string> {
  clock.advance(30_000);
  const pending = await bo.signIn({ context: ctx(), login: op.login, password: op.password });
  const done = await bo.completeSignIn({
    context: ctx(),
    pendingToken: pending.pendingToken,
    factor: { case: "totpCode", value: totpCode(op.totpSecret, op.login, clock.now()) },
  });
  return done.session?.sessionToken ?? "";
}

/**
 * Makes the service's database refuse audit rows naming `target` (a real trigger on audit_log), until the test
 * ends: what a change whose audit row cannot be written must then do is roll back with it.
 */
export async function refuseAudit(t: { teardown(fn: () => unknown): void }, svc: Service, target: string): Promise<void> {
  await svc.sql(`create or replace function refuse_audit_for_test() returns trigger language plpgsql as $$
    begin raise exception 'audit insert refused by the test'; end $$`);
  await svc.sql(
    `create trigger refuse_audit_for_test before insert on audit_log for each row when (new.target = '${target}') execute function refuse_audit_for_test()`,
  );
  t.teardown(() => svc.sql("drop trigger if exists refuse_audit_for_test on audit_log"));
}
