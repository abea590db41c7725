/**
 * Bearer tokens for direct gRPC callers (CASHIER_SERVICE_TOKENS), the edge and
 * the Backoffice. Tokens are compared as SHA-256 digests in constant time; a
 * missing or wrong token is UNAUTHENTICATED before any work is done, the
 * request's bytes included. Each refusal is counted against the caller's
 * address, and an address past the limit gets RESOURCE_EXHAUSTED for every
 * call that would be refused (auth-throttle.ts); an accepted token still
 * passes, so a guesser on the edge's own machine cannot lock the edge out. Health stays open, so probes need no token; reflection
 * is behind the service tokens (reflection.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { status as GrpcStatus, type Metadata } from "@grpc/grpc-js";
import type { AuthThrottle } from "./auth-throttle.ts";
import { RpcError, type Interceptor } from "./interceptors.ts";
import { clientAddressOf } from "./peer-address.ts";

/** Why a call's authentication was refused: the label of the engine's refusal counter. */
export type AuthRefusal = "missing" | "malformed" | "wrong" | "throttled";

/** What every service of one server shares: the throttle of refused tokens, and who is told of each refusal. */
export interface AuthGuard {
  throttle: AuthThrottle;
  onRefused?: (reason: AuthRefusal) => void;
}

/** Judges a call's metadata: undefined when its bearer token is one of the accepted, else the refusal to throw. */
export type TokenCheck = (metadata: Metadata, peer: string | undefined) => RpcError | undefined;

const digest = (t: string) => createHash("sha256").update(t, "utf8").digest();

/** The check of `tokens`; with a guard, refusals are throttled per peer address and reported. */
export function tokenCheck(tokens: readonly string[], guard?: AuthGuard): TokenCheck {
  const accepted = tokens.map(digest);
  const refuse = (reason: AuthRefusal, address: string, error: RpcError): RpcError => {
    if (reason !== "throttled") guard?.throttle.failed(address);
    try {
      guard?.onRefused?.(reason);
    } catch {
      // a counter is never worth a caller's reply
    }
    return error;
  };
  return (metadata, peer) => {
    const address = clientAddressOf({ peer });
    // An accepted token always passes, so that no guesser sharing an address (a script on the edge's machine)
    // can lock the edge or the Backoffice out; only what would be refused anyway is throttled.
    const header = metadata.get("authorization")[0];
    const m = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
    if (m) {
      const given = digest(m[1]);
      let ok = false;
      for (const a of accepted) ok = timingSafeEqual(a, given) || ok;
      if (ok) return undefined;
    }
    const wait = guard?.throttle.blockedFor(address);
    if (wait !== undefined) {
      const message = `too many refused tokens from this address; retry after ${wait} s`;
      return refuse("throttled", address, new RpcError(GrpcStatus.RESOURCE_EXHAUSTED, message));
    }
    if (typeof header !== "string" || header.trim() === "")
      return refuse("missing", address, new RpcError(GrpcStatus.UNAUTHENTICATED, "authorization: Bearer <token> is required"));
    // Spaces around the value are not the token's (HTTP trims them; gRPC metadata as some clients send it does not).
    if (!m)
      return refuse("malformed", address, new RpcError(GrpcStatus.UNAUTHENTICATED, 'authorization: must be "Bearer <token>", one token after the word Bearer'));
    return refuse("wrong", address, new RpcError(GrpcStatus.UNAUTHENTICATED, "the bearer token is not valid"));
  };
}

/** The interceptor that lets a call on only with one of `tokens`. */
export function bearerAuth(tokens: readonly string[], guard?: AuthGuard): Interceptor {
  const check = tokenCheck(tokens, guard);
  return (next) => async (call) => {
    const refusal = check(call.metadata, call.peer);
    if (refusal) throw refusal;
    return next(call);
  };
}
