/**
 * The engine over TLS (ENGINE_TLS_CERT / ENGINE_TLS_KEY), with a self-signed
 * certificate for `localhost` made here by openssl: a Connect client that
 * trusts it calls Process and Health; a plaintext client and a client that
 * does not trust it get nothing; a separately started edge reaches it at an
 * https:// ENGINE_URL; the loopback hop of `npm start` trusts it by pin.
 */
import type { EngineTrust } from "../../engine/shared/runtime/worker-data.ts";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../support/until.ts";
import t from "tap";
import pino from "pino";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createFileRegistry, type DescMessage, type DescService, type MessageShape } from "@bufbuild/protobuf";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { loadConfig } from "../../engine/shared/config/config.ts";
import { startEngine, type EngineHandle } from "../../engine/engine.ts";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { healthFileDescriptor } from "../../engine/rpc/health-descriptor.ts";
import { loadServerTls, loopbackTrust } from "../../engine/runtime/tls.ts";
import { createEngineClient } from "../../edge/engine-client.ts";
import { startEdge } from "../../edge/server.ts";
import { saleRequest } from "../support/engine-request.ts";
import { MERCHANTS } from "../support/merchants.ts";
import { orderId, processSale } from "../support/wire.ts";

const TOKEN = "tls-test-token-0123456789abcdefghij";
const dir = mkdtempSync(join(tmpdir(), "cashier-tls-"));
chmodSync(dir, 0o755);
const certFile = join(dir, "cert.pem");
const keyFile = join(dir, "key.pem");
// The certificate names localhost only (no IP): a client dialling 127.0.0.1 must pin it.
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    keyFile,
    "-out",
    certFile,
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost",
  ],
  { stdio: "ignore" },
);
const ca = readFileSync(certFile, "utf8");
const merchantsFile = join(dir, "merchants.json");
writeFileSync(merchantsFile, JSON.stringify(MERCHANTS));

const config = loadConfig({
  CASHIER_DATA_DIR: dir,
  ENGINE_PORT: "0",
  METRICS_PORT: "0",
  CASHIER_MERCHANTS_FILE: merchantsFile,
  CASHIER_SERVICE_TOKENS: TOKEN,
  ENGINE_TLS_CERT: certFile,
  ENGINE_TLS_KEY: keyFile,
});
const log = createLogger("info", pino.destination({ dest: join(dir, "engine.log"), sync: true }));
let engine: EngineHandle;
t.before(async () => {
  engine = await startEngine(config, log, { host: "127.0.0.1" });
});
t.teardown(async () => {
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sale = () => saleRequest({ orderId: orderId("tls") });

// The deadline is a hang guard, not a speed check: with six files at a time on a busy machine (load average 25)
// the file's first Process call took over 5 s.
const processVia = (url: string, trust?: EngineTrust) => createEngineClient(url, TOKEN, trust).process(sale(), { timeoutMs: 30_000 });

t.test("a client trusting the certificate calls Process over TLS", async (t) => {
  const res = await processVia(`https://localhost:${engine.port}`, { ca });
  t.equal(res.transaction?.status, TransactionStatus.APPROVED);
});

t.test("Health answers SERVING over TLS", async (t) => {
  const health = createFileRegistry(healthFileDescriptor, () => undefined).getService("grpc.health.v1.Health") as DescService;
  const client = createClient(health, createGrpcTransport({ baseUrl: `https://localhost:${engine.port}`, nodeOptions: { ca } }));
  const check = client.check as (req: object) => Promise<MessageShape<DescMessage> & { status?: number }>;
  let status = 0;
  await until(async () => {
    status = (await check({ service: "" })).status ?? 0;
    return status === 1;
  });
  t.equal(status, 1, "SERVING");
});

t.test("plaintext and untrusting clients get nothing", async (t) => {
  await t.rejects(processVia(`http://127.0.0.1:${engine.port}`), "a plaintext (h2c) client fails");
  await t.rejects(processVia(`https://localhost:${engine.port}`), /self[- ]signed|certificate/i, "a client that does not trust the certificate fails");
  await t.rejects(
    processVia(`https://127.0.0.1:${engine.port}`, { ca }),
    /IP: 127\.0\.0\.1 is not in the cert's list|altnames/i,
    "the certificate does not name 127.0.0.1",
  );
  const wrongPin = { ca, pinSha256: "00:11" };
  await t.rejects(processVia(`https://127.0.0.1:${engine.port}`, wrongPin), /not the pinned one/, "a wrong pin fails");
});

t.test("the loopback hop of npm start trusts the engine by pin, whatever its names", async (t) => {
  const res = await processVia(`https://127.0.0.1:${engine.port}`, loopbackTrust(loadServerTls(config)!));
  t.equal(res.transaction?.status, TransactionStatus.APPROVED);
});

t.test("a separately started edge reaches the TLS engine at an https:// ENGINE_URL", async (t) => {
  const edge = await startEdge({ port: 0, host: "127.0.0.1", engineUrl: `https://localhost:${engine.port}`, token: TOKEN, engineTrust: { ca }, log });
  t.teardown(() => edge.close());
  const reply = await processSale(`http://127.0.0.1:${edge.port}`);
  t.equal(reply.http, 200);
  t.equal(reply.body.transaction_status, "approved");
});
