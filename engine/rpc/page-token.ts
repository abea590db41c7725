/**
 * Pagination for every list RPC: `page_size` (default 50, at most 500) and an
 * opaque page token, a versioned base64url keyset cursor holding the last key
 * seen (a trace_id or callback id under `t`, a merchant_id under `m`, a
 * search position under `s`, `o`, `a`). A page
 * is read one row longer than asked, to know whether another follows.
 */
import { CONTROL_CHARACTERS } from "../domain/validate-process.ts";
import type { SearchKey } from "../app/ports.ts";
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

/** A search position's token: the order's exact creation time, its id and the attempt (ports.ts SearchKey). */
const encodeSearch = (k: SearchKey) => Buffer.from(JSON.stringify({ v: 1, s: k.orderCreatedAt, o: k.orderRef, a: k.attempt })).toString("base64url");

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function decodeSearch(token: string): SearchKey | undefined {
  try {
    const p = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { v?: unknown; s?: unknown; o?: unknown; a?: unknown };
    if (p.v !== 1 || typeof p.s !== "string" || !EXACT_TIME.test(p.s) || Number.isNaN(Date.parse(p.s))) return undefined;
    if (!Number.isSafeInteger(p.o) || (p.o as number) <= 0 || !Number.isSafeInteger(p.a) || (p.a as number) < 0 || (p.a as number) > 32767) return undefined;
    return { orderCreatedAt: p.s, orderRef: p.o as number, attempt: p.a as number };
  } catch {
    return undefined;
  }
}

/** A search request's page (ListTransactions): how many rows to read (one more than shown) and after which position. */
export function readSearchPage(req: { pageSize: number; pageToken: string }): { read: number; limit: number; after: SearchKey | undefined } {
  if (req.pageSize < 0 || req.pageSize > MAX_PAGE_SIZE) throw invalidArgument("page_size", `must be 0 to ${MAX_PAGE_SIZE}`);
  const after = req.pageToken ? decodeSearch(req.pageToken) : undefined;
  if (req.pageToken && after === undefined) throw invalidArgument("page_token", "is not a token this service issued");
  const limit = req.pageSize || DEFAULT_PAGE_SIZE;
  return { read: limit + 1, limit, after };
}

/**
 * A search's page: the rows shown, and the next page's token: after the last
 * row shown when more matched, else after the last row the bounded read
 * reached (`scannedTo`) when it stopped short of the end, else "".
 */
export function searchPageOf<T>(rows: { item: T; key: SearchKey }[], limit: number, scannedTo: SearchKey | undefined): { items: T[]; nextPageToken: string } {
  const shown = rows.slice(0, limit);
  if (rows.length > limit) return { items: shown.map((r) => r.item), nextPageToken: encodeSearch(shown[shown.length - 1].key) };
  return { items: shown.map((r) => r.item), nextPageToken: scannedTo ? encodeSearch(scannedTo) : "" };
}

/** A keyed page (pageOf) whose bounded read may stop short: then the token resumes below `scannedTo`. */
export function boundedPageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Key, scannedTo: Key | undefined): { items: T[]; nextPageToken: string } {
  if (rows.length > limit || scannedTo === undefined) return pageOf(rows, limit, keyOf);
  return { items: rows, nextPageToken: encode(scannedTo) };
}
