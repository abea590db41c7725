/**
 * The bench's requests, each a Shot (loops.ts) that answers undefined for an approved sale or what went wrong:
 * the signed JSON sale to the edge (or the floor server), and Process to the engine over gRPC by a bare node:http2
 * stream, the Connect client or grpc-js. Only a 200 with status 0 and an approved transaction (edge), or an
 * APPROVED transaction (gRPC), counts as a success.
 */
import http from "node:http";
import http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import {
  EngineService,
  ProcessRequestSchema,
  ProcessResponseSchema,
  type ProcessRequest,
  type ProcessResponse,
} from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { SERVICE_TOKEN, type Service } from "../support/service.ts";
import { orderId, saleBody, sign } from "../support/wire.ts";
import type { Shot } from "./loops.ts";

/** A request not answered by then is an error. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** The card every bench sale pays with (the simulator approves it). */
export const CARD = "4111111111111111";

export function errorLabel(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`.slice(0, 120);
  return String(err).slice(0, 120);
}

function isApprovedReply(status: number, text: string): string | undefined {
  if (status !== 200) return `http ${status}`;
  let body: { status?: unknown; transaction_status?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return "reply is not JSON";
  }
  if (body.status !== 0) return `status ${String(body.status)}`;
  if (body.transaction_status !== "approved") return `transaction_status ${String(body.transaction_status)}`;
  return undefined;
}

/**
 * Signed sales POSTed to `base`/api/process: the edge, or the floor server; by node:http with a keep-alive agent of
 * `sockets` sockets, or by global fetch.
 */
export function edgeShot(
  base: string,
  client: { kind: "http" | "fetch"; sockets: number },
  over: Record<string, unknown> = {},
  secret?: string,
): { shot: Shot; close(): void } {
  const url = new URL("/api/process", base);
  const payload = () => JSON.stringify(sign(saleBody({ card_number: CARD, ...over }), secret));
  if (client.kind === "fetch") {
    return {
      shot: async () => {
        try {
          const res = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: payload(),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          return isApprovedReply(res.status, await res.text());
        } catch (err) {
          return errorLabel(err);
        }
      },
      close() {},
    };
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: client.sockets, maxFreeSockets: client.sockets });
  const shot: Shot = () =>
    new Promise((resolve) => {
      const body = Buffer.from(payload(), "utf8");
      const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(isApprovedReply(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"))));
        res.on("error", (err) => resolve(errorLabel(err)));
      });
      req.on("error", (err) => resolve(errorLabel(err)));
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error("request timed out")));
      req.end(body);
    });
  return { shot, close: () => agent.destroy() };
}

function processRequest(): ProcessRequest {
  return create(ProcessRequestSchema, {
    merchantId: "m-test",
    orderId: orderId("grpc"),
    transactionType: TransactionType.SALE,
    amount: { amountMinor: 1050n, currency: "USD" },
    card: { number: CARD, cvv: "123", expiry: "12/2030" },
    customer: { pin: "cust-42", email: "jane@example.com", firstName: "Jane", lastName: "Doe", country: "GB", zip: "SW1A1AA" },
    frontend: "test-usd",
    returnUrl: "https://merchant.example/return",
    timestamp: BigInt(Math.floor(Date.now() / 1000)),
    version: "1.0",
  });
}

function isApprovedResponse(res: ProcessResponse): string | undefined {
  const status = res.transaction?.status;
  if (status !== TransactionStatus.APPROVED) return `transaction status ${status === undefined ? "missing" : TransactionStatus[status]}`;
  return undefined;
}

export function grpcShot(svc: Service, client: "http2" | "connect" | "grpc-js"): { shot: Shot; close(): void } {
  if (client === "connect") {
    return {
      shot: async () => {
        try {
          return isApprovedResponse(await svc.client.process(processRequest()));
        } catch (err) {
          return errorLabel(err);
        }
      },
      close() {},
    };
  }
  const path = `/${EngineService.typeName}/${EngineService.method.process.name}`;
  if (client === "http2") return bareGrpcShot(`http://127.0.0.1:${svc.engine.port}`, path);
  const channel = new grpc.Client(`127.0.0.1:${svc.engine.port}`, grpc.credentials.createInsecure());
  const serialize = (m: ProcessRequest) => Buffer.from(toBinary(ProcessRequestSchema, m));
  const deserialize = (b: Buffer) => fromBinary(ProcessResponseSchema, b);
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${SERVICE_TOKEN}`);
  const shot: Shot = () =>
    new Promise((resolve) => {
      channel.makeUnaryRequest(path, serialize, deserialize, processRequest(), metadata, { deadline: Date.now() + REQUEST_TIMEOUT_MS }, (err, res) => {
        if (err) resolve(`grpc ${grpc.status[err.code] ?? err.code}: ${err.details}`.slice(0, 120));
        else if (!res) resolve("empty response");
        else resolve(isApprovedResponse(res));
      });
    });
  return { shot, close: () => channel.close() };
}

/**
 * The gRPC counterpart of the floor's client (a bare node:http request): one
 * node:http2 stream per call on one session, the request as one gRPC frame,
 * the reply's frame decoded once grpc-status 0 has come.
 */
function bareGrpcShot(url: string, path: string): { shot: Shot; close(): void } {
  const session = http2.connect(url);
  session.on("error", () => {});
  const headers = {
    ":method": "POST",
    ":path": path,
    "content-type": "application/grpc+proto",
    te: "trailers",
    authorization: `Bearer ${SERVICE_TOKEN}`,
    "grpc-timeout": `${REQUEST_TIMEOUT_MS}m`,
  };
  const shot: Shot = () =>
    new Promise((resolve) => {
      const frame = encodeEnvelope(0, toBinary(ProcessRequestSchema, processRequest()));
      const stream = session.request(headers);
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message = "";
      const statusOf = (h: http2.IncomingHttpHeaders) => {
        if (h["grpc-status"] === undefined) return;
        status = String(h["grpc-status"]);
        message = decodeURIComponent(String(h["grpc-message"] ?? ""));
      };
      stream.setTimeout(REQUEST_TIMEOUT_MS, () => stream.close(http2.constants.NGHTTP2_CANCEL));
      stream.on("response", statusOf);
      stream.on("trailers", statusOf);
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", (err) => resolve(errorLabel(err)));
      stream.on("close", () => {
        if (status !== "0") return resolve(`grpc ${status ?? `reset ${stream.rstCode}`}: ${message}`.slice(0, 120));
        try {
          resolve(isApprovedResponse(fromBinary(ProcessResponseSchema, Buffer.concat(chunks).subarray(5))));
        } catch (err) {
          resolve(errorLabel(err));
        }
      });
      stream.end(frame);
    });
  return { shot, close: () => session.close() };
}
