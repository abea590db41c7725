/**
 * CSV lines (RFC 4180: fields quoted when they hold a comma, quote or line
 * break; quotes doubled). A text field that a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe, so an
 * order id or a note typed by someone else cannot become a formula in the
 * operator's spreadsheet.
 */
export function csvField(value: string | number | bigint): string {
  if (typeof value !== "string") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: readonly (string | number | bigint)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
