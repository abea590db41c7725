/**
 * The console's Connect client to the engine's BackofficeService over gRPC,
 * with the Backoffice's bearer token on every call (the transport's
 * credential; the person is the console session token inside each request).
 * Over TLS when the URL is https://, trusting ENGINE_TLS_CA or a pinned
 * certificate as the edge does.
 */
import type * as http2 from "node:http2";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { isIP } from "node:net";
import { BackofficeService } from "../../gen/cashier/admin/v1/backoffice_service_pb.js";
import type { EngineTrust } from "../engine-client.ts";
import { createEnginePool, engineUrls } from "../engine-pool.ts";

export type BackofficeClient = Client<typeof BackofficeService>;

function tlsOptions(trust: EngineTrust): http2.SecureClientSessionOptions {
  const options: http2.SecureClientSessionOptions = {};
  if (trust.ca) options.ca = trust.ca;
  if (trust.pinSha256) {
    const pin = trust.pinSha256;
    options.allowPartialTrustChain = true;
    options.checkServerIdentity = (_host, cert) =>
      cert.fingerprint256 === pin ? undefined : new Error(`the engine's certificate is not the pinned one (${cert.fingerprint256})`);
  }
  return options;
}

export function createBackofficeClient(baseUrl: string, token: string, trust: EngineTrust = {}): BackofficeClient {
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
  // One engine by address: one transport. Several, or a name with several addresses (compose replicas): round-robin.
  const single = engineUrls(baseUrl).length === 1 && isIP(new URL(baseUrl).hostname.replace(/^\[|\]$/g, "")) !== 0;
  return createClient(BackofficeService, single ? make(baseUrl) : createEnginePool(baseUrl, make).transport);
}
