/**
 * Bearer tokens for direct gRPC callers (CASHIER_SERVICE_TOKENS) and the edge.
 * Tokens are compared as SHA-256 digests in constant time; a missing or wrong
 * token is UNAUTHENTICATED before any work is done, the request's bytes
 * included. Health and reflection stay open so probes and grpcurl's discovery
 * work without a token.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { RpcError, type Interceptor } from "./interceptors.ts";

const digest = (t: string) => createHash("sha256").update(t, "utf8").digest();

export function bearerAuth(tokens: string[]): Interceptor {
  const accepted = tokens.map(digest);
  return (next) => async (call) => {
    const header = call.metadata.get("authorization")[0];
    if (typeof header !== "string" || header.trim() === "") throw new RpcError(GrpcStatus.UNAUTHENTICATED, "authorization: Bearer <token> is required");
    // Spaces around the value are not the token's (HTTP trims them; gRPC metadata as some clients send it does not).
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!m) throw new RpcError(GrpcStatus.UNAUTHENTICATED, 'authorization: must be "Bearer <token>", one token after the word Bearer');
    const given = digest(m[1]);
    let ok = false;
    for (const a of accepted) ok = timingSafeEqual(a, given) || ok;
    if (!ok) throw new RpcError(GrpcStatus.UNAUTHENTICATED, "the bearer token is not valid");
    return next(call);
  };
}
