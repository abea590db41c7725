/**
 * Postgres that survives losing its primary (docs/ha-lab.md): the engine runs
 * on the HA lab (three Patroni nodes with synchronous replication behind
 * HAProxy) while 64 platforms send sales and payouts and its workers deliver
 * their callbacks; the primary is killed (kill -9 of the whole node), then
 * switched over, then cut off (frozen: no answer, no refusal). Each time:
 * every answer the platforms got is what the database holds (an approved sale
 * is there once, approved; none is approved twice), every refusal during the
 * switch is a retryable 503 with status -2, every owed callback is delivered,
 * the engine listens for other engines' work on the new primary, and the
 * time until sales succeed again is printed, never asserted.
 *
 * It needs Debian's patroni, etcd-server, haproxy and postgresql, which
 * .ci/run installs; without them it says so and skips.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { LISTENER_APPLICATION_NAME } from "../../engine/store/work-listener.ts";
import { type HaLab, missingPackages, startHaLab } from "../support/ha-lab/lab.ts";
import { type LoadReport, startLoad, switchFigures, timeline } from "../support/ha-lab/load.ts";
import {
  callbackStates,
  contradictions,
  doubleApprovals,
  laterOutcomes,
  listeners,
  storedOrders,
  unsettledOrders,
  warningsOf,
} from "../support/ha-lab/checks.ts";
import { startWriteProbe } from "../support/ha-lab/write-probe.ts";
import { launch, stopProcess } from "../support/processes.ts";
import { createEngineClient, type EngineClient } from "../../edge/engine-client.ts";
import { startPlatformStub } from "../support/platform-stub.ts";
import { PLATFORM_SECRETS, platformMerchants } from "../support/platform-merchants.ts";
import { until } from "../support/until.ts";

const missing = missingPackages();
const MERCHANT = { merchantId: "m-plat", frontend: "plat-usd" };
/** Of the 64 clients, these send Process over gRPC to the engine (an internal service), the others the signed JSON. */
const GRPC_CLIENTS = 8;
const SERVICE_TOKEN = "ha-failover-service-token-0123456789abcdef";
/** Load before the fault and after sales succeed again: enough to see the switch in the middle of traffic. */
const STEADY_MS = 8000;
/** Hang guards for the waits below, not speed limits: the figures are printed. */
const RECOVERY_GUARD_MS = 180_000;
const SETTLE_GUARD_MS = 180_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A hang guard for this file, not a speed limit: it starts a cluster of three nodes and runs three scenarios of
// about a minute of load each plus the settling of every order, about 7 minutes alone on the 2-core VM, more in a
// full run; the run's 10 minutes per file would cut it.
t.setTimeout(25 * 60_000);

if (missing.length > 0) {
  t.comment(`skipped: the HA lab needs Debian's ${missing.join(", ")} (.ci/run installs them; apt-get install ${missing.join(" ")})`);
  t.pass("skipped: no HA lab on this machine");
} else {
  let lab: HaLab;
  let edgeUrl = "";
  let grpc: EngineClient;
  let engineOut: () => string = () => "";
  const stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
  t.teardown(() => stub.close());
  const dataDir = mkdtempSync(join(tmpdir(), "cashier-ha-engine-"));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  t.before(async () => {
    lab = await startHaLab({ say: (line) => t.comment(line) });
    t.teardown(() => lab.stop());
    const merchantsFile = join(dataDir, "merchants.json");
    writeFileSync(merchantsFile, JSON.stringify(platformMerchants(stub.url)));
    const engine = await launch(
      "engine/main.ts",
      {
        DATABASE_URL: lab.databaseUrl,
        CASHIER_DATA_DIR: dataDir,
        CASHIER_MERCHANTS_FILE: merchantsFile,
        ENGINE_PORT: "0",
        EDGE_PORT: "0",
        METRICS_PORT: "0",
        CASHIER_CALLBACK_ALLOW_PRIVATE: "1",
        CASHIER_SERVICE_TOKENS: SERVICE_TOKEN,
        CASHIER_CALLBACK_RETRY_SECONDS: "1,2,4,8,16,30,30,30",
        CASHIER_WORKER_POLL_MS: "200",
        // The lookup horizon of an attempt whose engine lost its answer: Validation's + the processor's + 10 s.
        CASHIER_PROCESSOR_TIMEOUT_MS: "10000",
        LOG_LEVEL: "info",
      },
      "cashier ready",
      ["--with-edge"],
    );
    t.teardown(() => stopProcess(engine.child));
    edgeUrl = `http://127.0.0.1:${engine.line.edgePort}`;
    grpc = createEngineClient(`http://127.0.0.1:${engine.line.enginePort}`, SERVICE_TOKEN);
    engineOut = engine.out;
  });

  const scenario = (name: string, fault: () => Promise<string | undefined>) =>
    t.test(name, async (t) => {
      await lab.healthy();
      const probe = await startWriteProbe(lab.databaseUrl);
      const load = startLoad({
        edgeUrl,
        notifyUrl: `${stub.url}/notify`,
        clients: 64,
        grpc: { client: grpc, clients: GRPC_CLIENTS },
        ...MERCHANT,
      });
      await sleep(STEADY_MS);
      const faultAt = performance.now();
      const hit = await fault();
      // Until a sale sent after the fault is approved (and no refusal since), then some steady load on the new primary.
      const back = await until(
        async () => {
          const f = switchFigures(load.report, faultAt);
          return Number.isFinite(f.secondsToSuccess) && performance.now() - faultAt > f.secondsToSuccess * 1000 + 2000;
        },
        RECOVERY_GUARD_MS,
        500,
      );
      await sleep(STEADY_MS);
      const report: LoadReport = await load.stop();
      await probe.stop();
      t.ok(back, "sales succeed again after the switch");
      if (hit) await lab.restore(hit);
      const figures = switchFigures(report, faultAt);

      t.same(report.unanswered, [], "the edge answered every request (it never goes away here)");
      const wrongRefusals = report.refusals.filter((r) => (r.via === "grpc" ? r.code !== "Unavailable/UNAVAILABLE" : r.http !== 503 || r.status !== -2));
      t.same(
        wrongRefusals.slice(0, 5),
        [],
        "every refusal is retryable: HTTP 503 with status -2, gRPC UNAVAILABLE with the engine's reason (never another 5xx or code, never a wrong status)",
      );
      t.ok(
        report.answers.some((a) => a.via === "grpc") && report.answers.some((a) => a.via === "http"),
        "orders were answered over both the merchant API and gRPC",
      );
      t.ok(report.answers.length > 64, `${report.answers.length} orders answered`);

      // The answers against the database, once every pending order is final (the acquirer's later answer, a lookup).
      const orderIds = report.answers.map((a) => a.orderId);
      const settled = await until(
        async () => (await unsettledOrders(lab.databaseUrl, MERCHANT.merchantId, orderIds).catch(() => -1)) === 0,
        SETTLE_GUARD_MS,
        1000,
      );
      t.ok(settled, "every order is final in the database (pending ones settled by the acquirer or a lookup)");
      const stored = await storedOrders(lab.databaseUrl, MERCHANT.merchantId, orderIds);
      const wrong = contradictions(report.answers, stored);
      t.same(wrong.slice(0, 10), [], `no answer the database contradicts (${wrong.length} of ${report.answers.length})`);
      const approved = report.answers.filter((a) => a.transactionStatus === "approved");
      t.ok(approved.length > 0, `${approved.length} orders answered approved, each there once and approved`);
      const doubled = await doubleApprovals(lab.databaseUrl, MERCHANT.merchantId);
      t.same(doubled, [], "no order approved twice");
      // Lost: answered approved or declined, and not so (or not there) in the database.
      const lost = report.answers.filter(
        (a) =>
          (a.transactionStatus === "approved" || a.transactionStatus === "declined") &&
          stored.get(a.orderId)?.traces.find((x) => x.traceId === a.traceId)?.status !== a.transactionStatus,
      );

      // Every callback owed is delivered: none left pending, none given up, each delivered one received by the platform.
      let cb = await callbackStates(lab.databaseUrl);
      await until(
        async () => {
          cb = await callbackStates(lab.databaseUrl).catch(() => cb);
          return cb.pending === 0;
        },
        SETTLE_GUARD_MS,
        1000,
      );
      t.equal(cb.pending, 0, `no callback still owed ${cb.stuck.join("; ")}`);
      t.equal(cb.failed, 0, "no callback given up");
      const received = new Set(stub.received().map((c) => c.eventId));
      const notReceived = cb.delivered.filter((id) => !received.has(id));
      t.same(notReceived.slice(0, 5), [], `each of the ${cb.delivered.length} callbacks delivered reached the platform`);

      const listening = await until(async () => (await listeners(lab.databaseUrl, LISTENER_APPLICATION_NAME).catch(() => 0)) === 1, 60_000, 500);
      t.ok(listening, "the engine listens for other engines' work on the new primary");

      const line =
        `${name}: sales succeed again ${figures.secondsToSuccess.toFixed(1)} s after the fault (the database took writes again after ` +
        `${probe.secondsBack(faultAt).toFixed(1)} s); ${figures.refusals} refusals (HTTP 503 with status -2, or gRPC UNAVAILABLE) ` +
        `during the switch (${report.refusals.filter((r) => r.via === "grpc").length} of them gRPC UNAVAILABLE), ${figures.retriedOrders} orders retried, longest wait ${figures.longestWaitSeconds.toFixed(1)} s; ` +
        `${report.answers.length} orders answered (${approved.length} approved); lost ${lost.length}, doubled ${doubled.length}, ` +
        `other contradictions ${wrong.length - lost.length}; ` +
        `${cb.delivered.length} callbacks delivered`;
      t.comment(line);
      process.stderr.write(`ha-failover: ${line}\n`);
      t.comment(`orders answered not final during the switch, as they ended: ${laterOutcomes(report.answers, stored).join("; ") || "none"}`);
      t.comment(`answers and refusals per second from the fault:\n${timeline(report, faultAt, -2, Math.ceil(figures.secondsToSuccess) + 3).join("\n")}`);
      t.comment(`the engine's warnings and errors so far:\n${warningsOf(engineOut()).join("\n")}`);
    });

  scenario("kill -9 of the primary node under load", () => lab.killPrimary());
  scenario("a switchover under load", async () => {
    await lab.switchover();
    return undefined;
  });
  scenario("the primary cut off (frozen) under load", () => lab.cutPrimary());
}
