/**
 * The one place the running service takes the time of day from. Use cases read
 * it through deps.now, the merchant directory through its constructor; engine.ts
 * passes the system clock unless a test gives one it can move
 * (test/support/clock.ts), so that a test of an expiry or an overlap moves
 * time instead of sleeping through it. Due times and leases are compared on
 * the database's clock (`now()` in SQL, shared by every engine), which no
 * test moves; durations measured with performance.now() are not times of day.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
