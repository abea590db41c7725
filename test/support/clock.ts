/**
 * A clock a test moves: the system's time plus an offset the test advances,
 * passed to the engine (startService's `now`, engine/shared/runtime/clock.ts). Time
 * keeps flowing as it does for real; advance() jumps it forward, so a test of
 * an expiry or an overlap takes no longer than its requests.
 */
import type { Clock } from "../../engine/shared/runtime/clock.ts";

export interface MovableClock {
  now: Clock;
  /** Moves the service's time forward by `ms`. */
  advance(ms: number): void;
}

export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms;
    },
  };
}
