/**
 * Rate limits of the hosted Cashier (rate-limiter-flexible, in the memory of
 * each edge process: N edges admit N times the figures below, which stay far
 * under what a person does and far over what a guesser needs to be slowed).
 * - session start (`POST /api/session`): 120 per minute per client address;
 * - autologin guesses: 10 unusable autologin addresses per client address in
 *   10 minutes, then that address is refused for 10 minutes (a valid token is
 *   43 random characters: this only stops a flood);
 * - page submits (deposit, withdrawal, cancel, card removal): 10 per minute
 *   per browser session and 60 per minute per client address.
 * A refused request gets 429 with Retry-After in seconds. The client address is
 * the one edge/middleware/client.ts names: behind a trusted proxy, the
 * customer's, never the proxy's (which all customers would share).
 */
import type { Context, Next } from "koa";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { REASONS } from "../../engine/shared/errors.ts";
import { sessionRefusalReply } from "../../engine/shared/wire/session-reply.ts";
import { clientAddress } from "../middleware/client.ts";

export interface Limit {
  points: number;
  /** Seconds over which the points are counted. */
  duration: number;
  /** Seconds a key stays refused once over its points; 0: until the window ends. */
  blockDuration?: number;
}

export const LIMITS = {
  sessionStart: { points: 120, duration: 60 },
  autologinGuesses: { points: 10, duration: 600, blockDuration: 600 },
  submitsPerSession: { points: 10, duration: 60 },
  submitsPerAddress: { points: 60, duration: 60 },
} as const satisfies Record<string, Limit>;

/** Seconds to wait when refused, else undefined. */
export type Verdict = number | undefined;

export interface Limiter {
  /** Counts one event for `key`; the wait in seconds when the key is over its limit. */
  hit(key: string): Promise<Verdict>;
  /** The wait in seconds when `key` is already over its limit, without counting. */
  check(key: string): Promise<Verdict>;
}

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export function createLimiter(limit: Limit): Limiter {
  const memory = new RateLimiterMemory({ points: limit.points, duration: limit.duration, blockDuration: limit.blockDuration ?? 0 });
  return {
    async hit(key) {
      try {
        await memory.consume(key);
        return undefined;
      } catch (res) {
        if (res instanceof RateLimiterRes) return seconds(res);
        throw res;
      }
    },
    async check(key) {
      const res = await memory.get(key);
      return res && res.remainingPoints <= 0 ? seconds(res) : undefined;
    },
  };
}

/** The limiters of one edge process. */
export interface CashierLimiters {
  sessionStart: Limiter;
  autologinGuesses: Limiter;
  submitsPerSession: Limiter;
  submitsPerAddress: Limiter;
}

export function createCashierLimiters(limits: Record<keyof CashierLimiters, Limit> = LIMITS): CashierLimiters {
  return {
    sessionStart: createLimiter(limits.sessionStart),
    autologinGuesses: createLimiter(limits.autologinGuesses),
    submitsPerSession: createLimiter(limits.submitsPerSession),
    submitsPerAddress: createLimiter(limits.submitsPerAddress),
  };
}

/**
 * Koa middleware for `POST /api/session`: over the limit, the wire's JSON
 * refusal with 429 and Retry-After, before the body is read.
 */
export function sessionStartLimit(limiter: Limiter) {
  return async (ctx: Context, next: Next) => {
    const wait = await limiter.hit(clientAddress(ctx));
    if (wait === undefined) return next();
    ctx.req.resume();
    ctx.status = 429;
    ctx.set("Retry-After", String(wait));
    ctx.type = "application/json";
    // A session start's refusal, in its own members (redirect_url, auth_token, expires_at null), unsigned: no merchant was looked at.
    ctx.body = sessionRefusalReply(REASONS.RATE_LIMITED.status, `Too many session starts from this address; retry after ${wait} s`);
  };
}
