/**
 * `npm run backoffice`: the console as a process of its own, as
 * docker-compose runs it, reaching the engine at ENGINE_URL with
 * CASHIER_BACKOFFICE_TOKEN; it refuses to start without its token or with a
 * half TLS setting, naming the variable. And `npm start`, which opens the
 * console on its own loopback port beside the public edge.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { MERCHANTS } from "../../../support/merchants.ts";
import { launch, stopProcess } from "../../../support/processes.ts";
import { SERVICE_TOKEN, useService } from "../../../support/service.ts";

const service = useService(t);

t.test("npm run backoffice alone: listens on BACKOFFICE_PORT and reaches the engine with its token", async (t) => {
  const bo = await launch(
    "edge/backoffice/main.ts",
    { BACKOFFICE_PORT: "0", BACKOFFICE_HOST: "127.0.0.1", ENGINE_URL: service().engineUrl, CASHIER_BACKOFFICE_TOKEN: SERVICE_TOKEN },
    "backoffice listening",
  );
  t.teardown(() => stopProcess(bo.child));
  const url = `http://127.0.0.1:${bo.line.port}`;
  t.same(await (await fetch(`${url}/healthz`)).json(), { status: 0, description: "ok" });
  const signin = await fetch(`${url}/signin`);
  t.equal(signin.status, 200);
  t.match(await signin.text(), /<h1>Sign in<\/h1>/);
});

t.test("it refuses to start without CASHIER_BACKOFFICE_TOKEN, or with half a TLS setting, saying why", async (t) => {
  await t.rejects(
    launch("edge/backoffice/main.ts", { BACKOFFICE_PORT: "0", CASHIER_BACKOFFICE_TOKEN: "" }, "backoffice listening"),
    /CASHIER_BACKOFFICE_TOKEN is required/,
  );
  await t.rejects(
    launch(
      "edge/backoffice/main.ts",
      { BACKOFFICE_PORT: "0", CASHIER_BACKOFFICE_TOKEN: "backoffice-token-of-this-test-0123456789", BACKOFFICE_TLS_CERT: "/nonexistent.pem" },
      "backoffice listening",
    ),
    /BACKOFFICE_TLS_CERT and BACKOFFICE_TLS_KEY go together/,
  );
  await t.rejects(
    launch(
      "edge/backoffice/main.ts",
      { BACKOFFICE_PORT: "99999", CASHIER_BACKOFFICE_TOKEN: "backoffice-token-of-this-test-0123456789" },
      "backoffice listening",
    ),
    /BACKOFFICE_PORT must be a port number/,
  );
});

t.test("npm start opens the console on its own port, on loopback, beside the edge that does not serve it", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-start-bo-"));
  chmodSync(dir, 0o755);
  const merchants = join(dir, "merchants.json");
  writeFileSync(merchants, JSON.stringify(MERCHANTS));
  const started = await launch(
    "engine/main.ts",
    { CASHIER_DATA_DIR: dir, EDGE_PORT: "0", ENGINE_PORT: "0", METRICS_PORT: "0", BACKOFFICE_PORT: "0", CASHIER_MERCHANTS_FILE: merchants },
    "cashier ready",
    ["--with-edge"],
  );
  t.teardown(async () => {
    await stopProcess(started.child);
    rmSync(dir, { recursive: true, force: true });
  });
  const { backofficePort, edgePort } = started.line as { backofficePort: number; edgePort: number };
  t.ok(backofficePort > 0 && backofficePort !== edgePort, "a port of its own");
  t.match(String(started.line.msg), new RegExp(`Backoffice on http://127\\.0\\.0\\.1:${backofficePort}`), "bound to 127.0.0.1 by default");
  const signin = await fetch(`http://127.0.0.1:${backofficePort}/signin`);
  t.equal(signin.status, 200);
  t.match(await signin.text(), /<h1>Sign in<\/h1>/);
  const edge = await fetch(`http://127.0.0.1:${edgePort}/signin`);
  t.equal(edge.status, 404, "the public edge does not serve the console");
  await edge.body?.cancel();
  // The console reaches the engine with the engine's own Backoffice token: an unknown login is refused by the engine.
  const page = await fetch(`http://127.0.0.1:${backofficePort}/signin`);
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1];
  const refused = await fetch(`http://127.0.0.1:${backofficePort}/signin`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf_token: csrf, login: "nobody", password: "not a password at all" }).toString(),
  });
  t.equal(refused.status, 401);
  t.match(await refused.text(), /The login or the password is wrong/);
});
