/**
 * The edge's Connect client to the engine over the gRPC protocol (HTTP/2),
 * with the bearer token on every call and compression off on this internal hop.
 */
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { EngineService } from "../gen/cashier/engine/v1/engine_service_pb.js";

export type EngineClient = Client<typeof EngineService>;

export function createEngineClient(baseUrl: string, token: string): EngineClient {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const transport = createGrpcTransport({
    baseUrl,
    interceptors: [auth],
    acceptCompression: [],
    defaultTimeoutMs: 30_000,
  });
  return createClient(EngineService, transport);
}
