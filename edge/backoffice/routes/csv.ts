/**
 * CSV lines (RFC 4180: fields quoted when they hold a comma, quote or line
 * break; quotes doubled). A text field that a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first, after any blanks) is prefixed with an apostrophe, so an
 * order id or a note typed by someone else cannot become a formula in the
 * operator's spreadsheet. And the downloads themselves, read page by page.
 */
import type { Context } from "koa";

export function csvField(value: string | number | bigint): string {
  if (typeof value !== "string") return String(value);
  // Leading blanks too: some spreadsheets skip them and still read the formula after them.
  const safe = /^[\s\u00a0]*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: readonly (string | number | bigint)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** One page of an export: its CSV lines and the token of the next page ("" at the end). */
export interface ExportPage {
  lines: string[];
  next: string;
}

export interface CsvExport {
  /** The file's name before its time stamp: `audit` gives audit-20261126T001500.csv. */
  name: string;
  head: string;
  /** Pages read at most; past them the file ends with a line saying it was cut. */
  maxPages: number;
  /** The page after `token` ("" for the first). */
  page(token: string): Promise<ExportPage>;
  /** The last line of a file cut after `rows` rows. */
  cutNote(rows: number): string;
  /** A line ending the file once every page is read (a replica's lag), if there is one to say. */
  closingNote?(): string | undefined;
}

/**
 * Reads an export page by page into a CSV download: no-store, no sniffing,
 * no referrer, named with the time of the download. A refusal from the engine
 * (on any page) is thrown before anything is sent.
 */
export async function sendCsv(ctx: Context, e: CsvExport): Promise<void> {
  const lines = [e.head];
  let token = "";
  let pages = 0;
  do {
    const page = await e.page(token);
    lines.push(...page.lines);
    token = page.next;
    pages += 1;
  } while (token && pages < e.maxPages);
  const rows = lines.length - 1;
  if (token) lines.push(csvLine([e.cutNote(rows)]));
  const closing = e.closingNote?.();
  if (closing) lines.push(csvLine([closing]));
  ctx.status = 200;
  ctx.set({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${e.name}-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, "")}.csv"`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
  ctx.body = lines.join("");
}
