/**
 * The ids a path or a form names (the console's, the hosted Cashier's, the
 * 3-D Secure page's), read once: a trace_id is a positive int32 (the
 * engine's type), a callback id a positive int64. Anything else is no id (the
 * route answers 404), never a value the engine client cannot encode, which
 * would be a 500.
 */
const TRACE_ID = /^[1-9][0-9]{0,9}$/;
const CALLBACK_ID = /^[1-9][0-9]{0,18}$/;
const INT64_MAX = 2n ** 63n - 1n;

export function traceIdOf(text: string | undefined | null): number | undefined {
  if (!text || !TRACE_ID.test(text)) return undefined;
  const n = Number(text);
  return n <= 2 ** 31 - 1 ? n : undefined;
}

export function callbackIdOf(text: string | undefined | null): bigint | undefined {
  if (!text || !CALLBACK_ID.test(text)) return undefined;
  const n = BigInt(text);
  return n <= INT64_MAX ? n : undefined;
}
