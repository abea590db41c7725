/**
 * `npm run platform-stub` as a user runs it: secrets from the merchants file and
 * PLATFORM_STUB_SECRETS, one printed line per callback with the signature's
 * verdict and the body, never a secret.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { MERCHANTS, SECRET } from "../../support/merchants.ts";
import { until } from "../../support/until.ts";
import { sign } from "../../support/wire.ts";

t.test("prints each callback with its signature's verdict, from secrets it loaded", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "stub-main-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const merchantsFile = join(dir, "merchants.json");
  writeFileSync(merchantsFile, JSON.stringify(MERCHANTS));
  const child = spawn(process.execPath, ["test/support/platform-stub-main.ts"], {
    cwd: new URL("../../..", import.meta.url).pathname,
    env: {
      ...process.env,
      PLATFORM_STUB_PORT: "0",
      CASHIER_MERCHANTS_FILE: merchantsFile,
      CASHIER_DATA_DIR: dir,
      PLATFORM_STUB_SECRETS: "m-extra:extra-secret-123",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (out += d));
  t.teardown(() => void child.kill("SIGTERM"));
  const url = await until(async () => /listening on (http:\/\/\S+)/.exec(out)?.[1], 20_000);
  t.ok(url, `it starts and says where (${out.split("\n")[0]})`);
  t.match(out, /merchants: .*m-test.*m-extra/, "secrets from the merchants file and PLATFORM_STUB_SECRETS");

  const note = {
    status: 0,
    description: "Approved",
    trace_id: 7,
    transaction_status: "approved",
    merchant_id: "m-test",
    order_id: "o-1",
    amount: 1050,
    currency: "USD",
  };
  const post = (body: unknown) => fetch(`${url}/notify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  t.equal((await post(sign(note, SECRET))).status, 200);
  t.equal((await post(sign(note, "not-the-secret"))).status, 401);
  await until(async () => (out.match(/notification merchant=m-test/g) ?? []).length >= 2, 5000);
  t.match(out, /notification merchant=m-test .*signature ok -> 200/, "a good signature is said ok");
  t.match(out, /notification merchant=m-test .*signature BAD/, "a bad one is said BAD");
  t.match(out, /"order_id": "o-1"/, "with the body, pretty");
  t.notMatch(out, SECRET, "no secret printed");
  t.notMatch(out, "extra-secret-123");
});
