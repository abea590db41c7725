/**
 * The console's own limit on sign-in guesses, in front of the engine's
 * per-operator lock: failed sign-in steps (password, second factor, an
 * enrolment form) from one address are counted, and past the limit the
 * address waits before the engine is even asked. Counted in memory per
 * console (rate-limiter-flexible): a guesser spread over several consoles is
 * still stopped by the engine's lock of 10 failures per operator.
 */
import { RateLimiterMemory } from "rate-limiter-flexible";

export interface SignInLimit {
  /** Failures allowed per address within `windowSeconds`. */
  failures: number;
  windowSeconds: number;
}

/** 20 failed steps per address in 15 minutes, then a wait until the window ends. */
export const DEFAULT_SIGN_IN_LIMIT: SignInLimit = { failures: 20, windowSeconds: 15 * 60 };

export interface SignInLimiter {
  /** Seconds the address must wait before trying again; 0 when it may try now. */
  waitSeconds(address: string): Promise<number>;
  /** Counts one failure of the address. */
  failed(address: string): Promise<void>;
}

export function signInLimiter(limit: SignInLimit = DEFAULT_SIGN_IN_LIMIT): SignInLimiter {
  const limiter = new RateLimiterMemory({ keyPrefix: "console-sign-in", points: limit.failures, duration: limit.windowSeconds });
  return {
    async waitSeconds(address) {
      const res = await limiter.get(address);
      return res && res.consumedPoints >= limit.failures ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
    },
    async failed(address) {
      // Past the limit consume() rejects with the wait; the count is what matters here.
      await limiter.consume(address).catch(() => {});
    },
  };
}
