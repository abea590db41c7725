/**
 * The rules of an operator's work-view choices (docs/backoffice.md, Work
 * views), pure so that unit tests table them: the engine keeps what the
 * console shows (column names, a page size, named query strings) without
 * knowing the console's pages, so it checks shape and bounds only.
 */
import type { FieldViolation } from "../../shared/errors.ts";

/** A column's name: the console's own (trace_id, amount, ...). */
const COLUMN = /^[a-z][a-z0-9_]{0,31}$/;
export const MAX_COLUMNS = 24;
/** Rows per page: 0 (the console's default) or within these bounds. */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 200;
export const MAX_SAVED_SEARCHES = 50;
export const SEARCH_NAME_MAX = 64;
export const SEARCH_QUERY_MAX = 2000;

/** What is wrong with a preferences change, by field; empty when it may be kept. */
export function preferenceFaults(columns: readonly string[], pageSize: number): FieldViolation[] {
  const faults: FieldViolation[] = [];
  if (columns.length > MAX_COLUMNS) faults.push({ field: "preferences.transaction_columns", description: `lists at most ${MAX_COLUMNS} columns` });
  else if (columns.some((c) => !COLUMN.test(c)))
    faults.push({ field: "preferences.transaction_columns", description: "holds a name that is not a column's (lower case letters, digits, _; at most 32)" });
  else if (new Set(columns).size !== columns.length) faults.push({ field: "preferences.transaction_columns", description: "names a column twice" });
  if (pageSize !== 0 && (!Number.isInteger(pageSize) || pageSize < PAGE_SIZE_MIN || pageSize > PAGE_SIZE_MAX))
    faults.push({ field: "preferences.page_size", description: `must be 0 (the default) or from ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}` });
  return faults;
}

/** What is wrong with a search to save, by field; the name is taken trimmed. */
export function savedSearchFaults(name: string, query: string): FieldViolation[] {
  const faults: FieldViolation[] = [];
  const n = name.trim();
  if (n === "") faults.push({ field: "name", description: "is required" });
  else if ([...n].length > SEARCH_NAME_MAX) faults.push({ field: "name", description: `is at most ${SEARCH_NAME_MAX} characters` });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character is what this refuses.
  else if (/[\u0000-\u001f\u007f]/.test(n)) faults.push({ field: "name", description: "may not hold control characters" });
  if (query.length > SEARCH_QUERY_MAX) faults.push({ field: "query", description: `is at most ${SEARCH_QUERY_MAX} characters` });
  // A query string as a URL carries it: printable ASCII, anything else percent-encoded.
  else if (query.startsWith("?") || query.includes("#") || !/^[\x21-\x7e]*$/.test(query))
    faults.push({ field: "query", description: "must be a URL query string without '?', percent-encoded (name=value&...)" });
  return faults;
}

/** A saved search's id as the engine makes them (a UUID): anything else names none. */
export function isSavedSearchId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}
