/**
 * `npm run backoffice`: the console as a process of its own, as
 * docker-compose runs it, reaching the engine at ENGINE_URL with
 * CASHIER_BACKOFFICE_TOKEN; it refuses to start without its token or with a
 * half TLS setting, naming the variable.
 */
import t from "tap";
import { launch, stopProcess } from "../../support/processes.ts";
import { SERVICE_TOKEN, useService } from "../../support/service.ts";

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
    launch("edge/backoffice/main.ts", { BACKOFFICE_PORT: "0", CASHIER_BACKOFFICE_TOKEN: "x", BACKOFFICE_TLS_CERT: "/nonexistent.pem" }, "backoffice listening"),
    /BACKOFFICE_TLS_CERT and BACKOFFICE_TLS_KEY go together/,
  );
  await t.rejects(
    launch("edge/backoffice/main.ts", { BACKOFFICE_PORT: "99999", CASHIER_BACKOFFICE_TOKEN: "x" }, "backoffice listening"),
    /BACKOFFICE_PORT must be a port number/,
  );
});
