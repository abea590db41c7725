/**
 * The edge's Connect client to the engine over the gRPC protocol (HTTP/2),
 * with the bearer token on every call and compression off on this internal hop;
 * over TLS when the base URL is https://. A base URL that lists several
 * engines, or names a host with several addresses, spreads calls over them.
 */
import type * as http2 from "node:http2";
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { isIP } from "node:net";
import { EngineService } from "../gen/cashier/engine/v1/engine_service_pb.js";
import { CashierService } from "../gen/cashier/engine/v1/cashier_service_pb.js";
import { createEnginePool, engineUrls } from "./engine-pool.ts";

export type EngineClient = Client<typeof EngineService>;
/** The hosted Cashier's engine API (session start, autologin, the customer's forms). */
export type CashierClient = Client<typeof CashierService>;

/**
 * How the client trusts a TLS engine (an https:// base URL). `ca`: PEM of a
 * private CA (else the system's roots). `pinSha256`: accept exactly the
 * certificate with this SHA-256 fingerprint whatever names it carries, for the
 * loopback hop of `npm start`, where 127.0.0.1 is rarely among them.
 */
export interface EngineTrust {
  ca?: string;
  pinSha256?: string;
}

function tlsOptions(trust: EngineTrust): http2.SecureClientSessionOptions {
  const options: http2.SecureClientSessionOptions = {};
  if (trust.ca) options.ca = trust.ca;
  if (trust.pinSha256) {
    const pin = trust.pinSha256;
    // The pinned certificate is its own trust anchor, even when a public CA issued it.
    options.allowPartialTrustChain = true;
    options.checkServerIdentity = (_host, cert) =>
      cert.fingerprint256 === pin ? undefined : new Error(`the engine's certificate is not the pinned one (${cert.fingerprint256})`);
  }
  return options;
}

export function createEngineClient(baseUrl: string, token: string, trust: EngineTrust = {}): EngineClient {
  return createEngineClients(baseUrl, token, trust).engine;
}

/**
 * The gRPC transport to the engine every face of the edge uses (the public
 * edge, the Backoffice console): the bearer token on every call, compression
 * off on this internal hop, TLS as `trust` says; one engine by address: one
 * transport, several (a list, or a name with several addresses): round-robin.
 */
export function engineTransport(baseUrl: string, token: string, trust: EngineTrust = {}): Transport {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const make = (target: string, servername?: string) =>
    createGrpcTransport({
      baseUrl: target,
      interceptors: [auth],
      acceptCompression: [],
      defaultTimeoutMs: 30_000,
      ...(target.startsWith("https:") ? { nodeOptions: { ...tlsOptions(trust), ...(servername ? { servername } : {}) } } : {}),
    });
  const single = engineUrls(baseUrl).length === 1 && isIP(new URL(baseUrl).hostname.replace(/^\[|\]$/g, "")) !== 0;
  return single ? make(baseUrl) : createEnginePool(baseUrl, make).transport;
}

/** Both engine services' clients over one transport (one connection, or one pool of them). */
export function createEngineClients(baseUrl: string, token: string, trust: EngineTrust = {}): { engine: EngineClient; cashier: CashierClient } {
  const transport = engineTransport(baseUrl, token, trust);
  return { engine: createClient(EngineService, transport), cashier: createClient(CashierService, transport) };
}
