/**
 * The operator command without DATABASE_URL, as on a developer's machine:
 * while `npm start` runs the embedded Postgres in CASHIER_DATA_DIR, the
 * command reaches it on the port of its postmaster.pid, and the engine then
 * serves the operator it created (the enrolment link works).
 */
import t from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { EnrolmentStep } from "../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { useService } from "../support/service.ts";
import { backofficeClient, ctx } from "../support/operators.ts";

const svc = useService(t, {}, { ownCluster: true });

t.test("create on the running embedded cluster, then enrol through the engine", async (t) => {
  if (process.env.DATABASE_URL) {
    t.comment("the service runs on DATABASE_URL, not on an embedded cluster: nothing to check");
    return;
  }
  const env: Record<string, string | undefined> = { ...process.env, CASHIER_DATA_DIR: svc().dataDir, BACKOFFICE_PUBLIC_URL: "http://console.test:8081" };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, ["engine/operator-cli.ts", "create", "local.admin", "--role", "admin"], {
    env,
    timeout: 60_000,
  });
  const token = /http:\/\/console\.test:8081\/enrol\/([A-Za-z0-9_-]{43})/.exec(stdout)?.[1] ?? "";
  t.ok(token, stdout);
  const view = await backofficeClient(svc().engineUrl).getEnrolment({ context: ctx(), token });
  t.equal(view.login, "local.admin");
  t.equal(view.step, EnrolmentStep.PASSWORD);
  const list = await promisify(execFile)(process.execPath, ["engine/operator-cli.ts", "list"], { env, timeout: 60_000 });
  t.match(list.stdout, /^local\.admin\tadmin\tenrolling\t\(all merchants\)$/m);
});
