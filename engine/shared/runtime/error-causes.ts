/**
 * An error and what it wraps, for the code a failure carries however it was
 * wrapped: pg's own error, MikroORM's exception around it (in `previous`), an
 * Error's `cause`. Used where a Postgres SQLSTATE decides the answer (the
 * store's CW409, the RPC layer's retryable and data errors).
 */
export interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  previous?: unknown;
}

/** An error and what it wraps (MikroORM keeps the driver's error in `previous`), a few levels deep. */
export function* causes(err: unknown): Generator<ErrorLike> {
  let e = err;
  for (let depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const like = e as ErrorLike;
    yield like;
    e = like.cause ?? like.previous;
  }
}
