/**
 * Failed authentications throttled per peer address: once `failures` tokens
 * (missing, malformed or wrong) were refused within `windowSeconds`, the address
 * is blocked for `blockSeconds`, and every call from it is refused at once as
 * RESOURCE_EXHAUSTED, its token not compared, so that guessing costs a guesser
 * time and tells it nothing. RESOURCE_EXHAUSTED rather than UNAUTHENTICATED:
 * gRPC's code for a quota that ran out says what happened, so an operator whose
 * client holds the right token sees why it is refused instead of hunting a token
 * fault; a guesser learns only what it would find out anyway (tokens are 32
 * characters or more, bearer-tokens.ts, so the block is not what stands
 * between it and a token).
 *
 * Counted by rate-limiter-flexible in this engine's memory (each engine of a
 * deployment counts its own), keyed by the peer's IP address without its port
 * (a new connection is no new guesser). Every client behind one address shares
 * its count: a script with a wrong token on the edge's machine can block the
 * edge's calls too, for a minute at most after it stops.
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export interface AuthFailureLimit {
  /** Refused tokens allowed per address within the window. */
  failures: number;
  windowSeconds: number;
  /** How long an address over the limit is refused without a look at its token. */
  blockSeconds: number;
}

/** 20 refused tokens from one address within a minute, then a minute of refusals. */
export const DEFAULT_AUTH_FAILURE_LIMIT: AuthFailureLimit = { failures: 20, windowSeconds: 60, blockSeconds: 60 };

/** Blocked addresses kept before the ended blocks are swept out. */
const SWEEP_AT = 1000;

export interface AuthThrottle {
  /** Whole seconds until `address` may present a token again, or undefined: a map lookup, asked before every compare. */
  blockedFor(address: string): number | undefined;
  /** Counts one refused token of `address`; past the limit the address is blocked. */
  failed(address: string): void;
}

export function authThrottle(limit: AuthFailureLimit = DEFAULT_AUTH_FAILURE_LIMIT): AuthThrottle {
  const counter = new RateLimiterMemory({ keyPrefix: "grpc-auth", points: limit.failures, duration: limit.windowSeconds });
  /** Blocked addresses and the time (ms since the epoch) their block ends; an entry goes when asked after that. */
  const blockedUntil = new Map<string, number>();
  const counted = (address: string, res: unknown) => {
    // The limit's last refusal blocks the address; its count starts again once the block is over.
    const now = Date.now();
    if (res instanceof RateLimiterRes && res.consumedPoints >= limit.failures && (blockedUntil.get(address) ?? 0) <= now) {
      // Blocks that ended go once there are many, so that guessers from many addresses cannot grow the map for good.
      if (blockedUntil.size >= SWEEP_AT) for (const [a, until] of blockedUntil) if (until <= now) blockedUntil.delete(a);
      blockedUntil.set(address, now + limit.blockSeconds * 1000);
      void counter.delete(address);
    }
  };
  return {
    blockedFor(address) {
      const until = blockedUntil.get(address);
      if (until === undefined) return undefined;
      const ms = until - Date.now();
      if (ms > 0) return Math.ceil(ms / 1000);
      blockedUntil.delete(address);
      return undefined;
    },
    failed(address) {
      // consume() counts at once; it resolves with the key's count, or rejects with it once over the points.
      counter.consume(address).then(
        (res) => counted(address, res),
        (res: unknown) => counted(address, res),
      );
    },
  };
}
