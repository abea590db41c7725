/**
 * `node engine/healthcheck.ts [host:port]`: exits 0 when the engine's
 * grpc.health.v1.Health/Check answers SERVING (the database answers), 1
 * otherwise. It is docker-compose's healthcheck: the node image has no
 * grpc_health_probe, and a TCP connect would call an engine without its
 * database healthy. TLS when ENGINE_TLS_CERT is set (the engine's own
 * certificate is trusted, the name is not checked: it dials itself).
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "./shared/config/env-file.ts";
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";

const target = process.argv[2] ?? `127.0.0.1:${process.env.ENGINE_PORT || "50051"}`;
const cert = process.env.ENGINE_TLS_CERT;
const credentials = cert
  ? grpc.credentials.createSsl(readFileSync(cert), null, null, { checkServerIdentity: () => undefined })
  : grpc.credentials.createInsecure();
const client = new grpc.Client(target, credentials);
const SERVING = 1;

// HealthCheckRequest{service: ""} is the empty message; the reply is field 1, an enum varint.
client.makeUnaryRequest(
  "/grpc.health.v1.Health/Check",
  (b: Buffer) => b,
  (b: Buffer) => b,
  Buffer.alloc(0),
  { deadline: Date.now() + 3000 },
  (err, reply) => {
    const status = !err && reply && reply.length >= 2 && reply[0] === 0x08 ? reply[1] : 0;
    process.stdout.write(err ? `unhealthy: ${err.message}\n` : status === SERVING ? "SERVING\n" : `NOT_SERVING (${status})\n`);
    client.close();
    process.exit(status === SERVING ? 0 : 1);
  },
);
