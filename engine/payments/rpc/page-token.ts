/**
 * Pagination for every list RPC: `page_size` (default 50; above 500 it is
 * taken as 500, as the common API rule has it, and a negative one is refused)
 * and an opaque page token, a versioned base64url keyset cursor holding the
 * last key seen (a trace_id or callback id under `t`, a merchant_id under `m`,
 * a search position under `s`, `o`, `a`, with a digest of the search's
 * filters under `f`: a search's token is good only for the same filters). A
 * page is read one row longer than asked, to know whether another follows.
 */
import { createHash } from "node:crypto";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { SearchKey } from "../ports/orders.ts";
import { invalidArgument } from "../../rpc/errors.ts";

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

/** How many rows a page shows: the default for 0, at most MAX_PAGE_SIZE; a negative size is refused. */
export function pageLimit(pageSize: number): number {
  if (pageSize < 0) throw invalidArgument("page_size", `must be 0 (the default, ${DEFAULT_PAGE_SIZE}) or more; above ${MAX_PAGE_SIZE} it is ${MAX_PAGE_SIZE}`);
  return Math.min(pageSize || DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
}

/** The request's page: how many rows to read (one more than shown) and after which key. */
export function readPage<K extends Key>(
  req: { pageSize: number; pageToken: string },
  kind: K extends number ? "number" : "string",
): { read: number; limit: number; after: K | undefined } {
  const limit = pageLimit(req.pageSize);
  const after = req.pageToken ? decode<K>(req.pageToken, kind) : undefined;
  if (req.pageToken && after === undefined) throw invalidArgument("page_token", "is not a token this service issued");
  return { read: limit + 1, limit, after };
}

/** The rows shown, and the token of the next page ("" on the last). */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Key): { items: T[]; nextPageToken: string } {
  const items = rows.slice(0, limit);
  return { items, nextPageToken: rows.length > limit ? encode(keyOf(items[items.length - 1])) : "" };
}

/** A search's filters as its tokens carry them: 16 characters of their SHA-256 (the filters are the caller's own; this only ties a token to them). */
export function filterDigest(filters: Uint8Array | string): string {
  return createHash("sha256").update(filters).digest("base64url").slice(0, 16);
}

/** A search position's token: the order's exact creation time, its id and the attempt (ports.ts SearchKey), and the filters' digest. */
const encodeSearch = (k: SearchKey, f: string) =>
  Buffer.from(JSON.stringify({ v: 1, s: k.orderCreatedAt, o: k.orderRef, a: k.attempt, f })).toString("base64url");

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function decodeSearch(token: string): (SearchKey & { f: string }) | undefined {
  try {
    const p = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { v?: unknown; s?: unknown; o?: unknown; a?: unknown; f?: unknown };
    if (p.v !== 1 || typeof p.s !== "string" || !EXACT_TIME.test(p.s) || Number.isNaN(Date.parse(p.s)) || typeof p.f !== "string") return undefined;
    if (!Number.isSafeInteger(p.o) || (p.o as number) <= 0 || !Number.isSafeInteger(p.a) || (p.a as number) < 0 || (p.a as number) > 32767) return undefined;
    return { orderCreatedAt: p.s, orderRef: p.o as number, attempt: p.a as number, f: p.f };
  } catch {
    return undefined;
  }
}

/**
 * A search request's page (ListTransactions): how many rows to read (one more
 * than shown) and after which position. `filters` is the digest of the
 * request's filters (filterDigest): a token issued for other filters is
 * refused, since its position means nothing in another search.
 */
export function readSearchPage(req: { pageSize: number; pageToken: string }, filters: string): { read: number; limit: number; after: SearchKey | undefined } {
  const limit = pageLimit(req.pageSize);
  const decoded = req.pageToken ? decodeSearch(req.pageToken) : undefined;
  if (req.pageToken && decoded === undefined) throw invalidArgument("page_token", "is not a token this service issued");
  if (decoded && decoded.f !== filters)
    throw invalidArgument("page_token", "was issued for other filters: repeat the first call's filters, or start again without a token");
  const after = decoded && { orderCreatedAt: decoded.orderCreatedAt, orderRef: decoded.orderRef, attempt: decoded.attempt };
  return { read: limit + 1, limit, after };
}

/**
 * A search's page: the rows shown, and the next page's token: after the last
 * row shown when more matched, else after the last row the bounded read
 * reached (`scannedTo`) when it stopped short of the end, else "".
 */
export function searchPageOf<T>(
  rows: { item: T; key: SearchKey }[],
  limit: number,
  scannedTo: SearchKey | undefined,
  filters: string,
): { items: T[]; nextPageToken: string } {
  const shown = rows.slice(0, limit);
  if (rows.length > limit) return { items: shown.map((r) => r.item), nextPageToken: encodeSearch(shown[shown.length - 1].key, filters) };
  return { items: shown.map((r) => r.item), nextPageToken: scannedTo ? encodeSearch(scannedTo, filters) : "" };
}

/** A keyed page (pageOf) whose bounded read may stop short: then the token resumes below `scannedTo`. */
export function boundedPageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Key, scannedTo: Key | undefined): { items: T[]; nextPageToken: string } {
  if (rows.length > limit || scannedTo === undefined) return pageOf(rows, limit, keyOf);
  return { items: rows, nextPageToken: encode(scannedTo) };
}
