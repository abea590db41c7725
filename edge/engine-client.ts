/**
 * The edge's Connect clients to the engine over the gRPC protocol (HTTP/2),
 * on one HTTP/2 session per engine address (grpc-transport.ts), with the bearer token on
 * every call; over TLS when the base URL is https://. A base URL that lists
 * several engines, or names a host with several addresses, spreads calls over
 * them.
 */
import type { EngineTrust } from "../engine/shared/runtime/worker-data.ts";
import type { SecureClientSessionOptions } from "node:http2";
import { createSecureContext, type PeerCertificate } from "node:tls";
import { isIP } from "node:net";
import { createClient, type Client } from "@connectrpc/connect";
import { EngineService } from "../gen/cashier/engine/v1/engine_service_pb.js";
import { CashierService } from "../gen/cashier/engine/v1/cashier_service_pb.js";
import { createEnginePool, engineUrls } from "./engine-pool.ts";
import { createUnaryGrpcTransport, type ClosableTransport } from "./grpc-transport.ts";

export type EngineClient = Client<typeof EngineService>;
/** The hosted Cashier's engine API (session start, autologin, the customer's forms). */
export type CashierClient = Client<typeof CashierService>;

/**
 * TLS for an https:// engine: the private CA, or the system's roots; with a
 * pin, exactly the pinned certificate whatever names it carries.
 */
function tlsFor(trust: EngineTrust): SecureClientSessionOptions {
  const pin = trust.pinSha256;
  const context = createSecureContext({
    ...(trust.ca ? { ca: trust.ca } : {}),
    // The pinned certificate is its own trust anchor, even when a public CA issued it.
    ...(pin ? { allowPartialTrustChain: true } : {}),
  });
  const checkServerIdentity = (_host: string, cert: PeerCertificate) =>
    cert.fingerprint256 === pin ? undefined : new Error(`the engine's certificate is not the pinned one (${cert.fingerprint256})`);
  return { secureContext: context, ...(pin ? { checkServerIdentity } : {}) };
}

export function createEngineClient(baseUrl: string, token: string, trust: EngineTrust = {}): EngineClient {
  return createEngineClients(baseUrl, token, trust).engine;
}

/**
 * The gRPC transport to the engine every face of the edge uses (the public
 * edge, the Backoffice console): the bearer token on every call, TLS as
 * `trust` says; one engine by address: one channel, several (a list, or a name
 * with several addresses): round-robin. `close()` ends its connections.
 */
export function engineTransport(baseUrl: string, token: string, trust: EngineTrust = {}): ClosableTransport {
  const tls = baseUrl.includes("https:") ? tlsFor(trust) : undefined;
  const make = (target: string, servername?: string) =>
    createUnaryGrpcTransport({
      baseUrl: target,
      header: { authorization: `Bearer ${token}` },
      defaultTimeoutMs: 30_000,
      ...(target.startsWith("https:") ? { tls: { ...tls, ...(servername ? { servername } : {}) } } : {}),
    });
  const single = engineUrls(baseUrl).length === 1 && isIP(new URL(baseUrl).hostname.replace(/^\[|\]$/g, "")) !== 0;
  return single ? make(baseUrl) : createEnginePool(baseUrl, make).transport;
}

/** Both engine services' clients over one transport (one connection, or one pool of them). */
export function createEngineClients(baseUrl: string, token: string, trust: EngineTrust = {}): { engine: EngineClient; cashier: CashierClient; close(): void } {
  const transport = engineTransport(baseUrl, token, trust);
  return { engine: createClient(EngineService, transport), cashier: createClient(CashierService, transport), close: () => transport.close() };
}
