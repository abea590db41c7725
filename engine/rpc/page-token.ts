/**
 * Pagination for every list RPC: `page_size` (default 50, at most 500) and an
 * opaque page token, a versioned base64url keyset cursor holding the last key
 * seen (a trace_id or callback id under `t`, a merchant_id under `m`). A page
 * is read one row longer than asked, to know whether another follows.
 */
import { CONTROL_CHARACTERS } from "../domain/validate-process.ts";
import { invalidArgument } from "./errors.ts";

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

type Key = number | string;

const encode = (key: Key) => Buffer.from(JSON.stringify(typeof key === "number" ? { v: 1, t: key } : { v: 1, m: key })).toString("base64url");

function decode<K extends Key>(token: string, kind: "number" | "string"): K | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { v?: unknown; t?: unknown; m?: unknown };
    if (parsed.v !== 1) return undefined;
    if (kind === "number") return Number.isSafeInteger(parsed.t) && (parsed.t as number) > 0 ? (parsed.t as K) : undefined;
    return typeof parsed.m === "string" && !CONTROL_CHARACTERS.test(parsed.m) ? (parsed.m as K) : undefined;
  } catch {
    return undefined;
  }
}

/** The request's page: how many rows to read (one more than shown) and after which key. */
export function readPage<K extends Key>(
  req: { pageSize: number; pageToken: string },
  kind: K extends number ? "number" : "string",
): { read: number; limit: number; after: K | undefined } {
  if (req.pageSize < 0 || req.pageSize > MAX_PAGE_SIZE) throw invalidArgument("page_size", `must be 0 to ${MAX_PAGE_SIZE}`);
  const after = req.pageToken ? decode<K>(req.pageToken, kind) : undefined;
  if (req.pageToken && after === undefined) throw invalidArgument("page_token", "is not a token this service issued");
  const limit = req.pageSize || DEFAULT_PAGE_SIZE;
  return { read: limit + 1, limit, after };
}

/** The rows shown, and the token of the next page ("" on the last). */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Key): { items: T[]; nextPageToken: string } {
  const items = rows.slice(0, limit);
  return { items, nextPageToken: rows.length > limit ? encode(keyOf(items[items.length - 1])) : "" };
}
