/**
 * The console's own limit on sign-in guesses, in front of the engine's
 * per-operator lock: failed sign-in steps (password, second factor, an
 * enrolment form) from one address are counted, and past the limit the
 * address waits before the engine is even asked. Each guess takes its
 * attempt before it is judged and gives it back unless it failed. Counted in memory per
 * console (rate-limiter-flexible): a guesser spread over several consoles is
 * still stopped by the engine's lock of 10 failures per operator. The address
 * is the client's as edge/middleware/client.ts names it: behind a trusted
 * proxy, the operator's own, so one guesser cannot lock every operator out.
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
  /**
   * Takes one attempt of the address before its guess is judged: the seconds
   * it must wait when none is left (0: go on). Taken first, so that guesses
   * sent at the same moment cannot all pass before any is counted.
   */
  take(address: string): Promise<number>;
  /** The attempt taken was no failed guess (it succeeded, or was not judged): given back. */
  giveBack(address: string): Promise<void>;
}

export function signInLimiter(limit: SignInLimit = DEFAULT_SIGN_IN_LIMIT): SignInLimiter {
  const limiter = new RateLimiterMemory({ keyPrefix: "console-sign-in", points: limit.failures, duration: limit.windowSeconds });
  return {
    async take(address) {
      try {
        await limiter.consume(address);
        return 0;
      } catch (res) {
        // Refused: consume() rejects with the limiter's state, whose msBeforeNext is the wait.
        const ms = (res as { msBeforeNext?: number }).msBeforeNext ?? limit.windowSeconds * 1000;
        return Math.max(1, Math.ceil(ms / 1000));
      }
    },
    async giveBack(address) {
      await limiter.reward(address, 1).catch(() => {});
    },
  };
}
