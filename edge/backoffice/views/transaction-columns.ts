/**
 * The transaction list's columns, one line per row (docs/backoffice.md, Work
 * views): each column's name (what the engine keeps in an operator's
 * preferences), header and cell. A compact date with the full time in its
 * title, amounts right-aligned in tabular figures, the status as a chip with
 * its word, and long values cut with an ellipsis, whole in their title.
 */
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { money, shortWhen, statusBadge, typeName } from "./format.ts";
import { pinLink } from "./customer-link.ts";

interface Column {
  name: string;
  label: ConsoleKey;
  numeric?: boolean;
  cell(tr: ConsoleTranslator, x: Transaction): Html;
}

/** A value that may be cut: whole in its title, a dash when empty. */
function clipped(value: string, ltr = false): Html {
  if (!value) return html`<td><span class="muted">–</span></td>`;
  return html`<td><bdi class="clip" title="${value}"${ltr ? html` dir="ltr"` : ""}>${value}</bdi></td>`;
}

const madeByKey = (x: Transaction): string => (x.createdBy === "customer" ? "bo.tx.madeByCustomer" : x.createdBy === "api" ? "bo.tx.madeByApi" : "");

/** Every column the list offers, in the default order. The trace id is always shown: it is the row's link. */
export const TRANSACTION_COLUMNS: readonly Column[] = [
  { name: "trace_id", label: "bo.tx.trace", cell: (_tr, x) => html`<td><a href="/transactions/${x.traceId}">${x.traceId}</a></td>` },
  { name: "created", label: "bo.tx.created", cell: (tr, x) => html`<td>${shortWhen(tr, x.createTime)}</td>` },
  { name: "merchant", label: "bo.tx.merchant", cell: (_tr, x) => clipped(x.merchantId) },
  { name: "order", label: "bo.tx.order", cell: (_tr, x) => clipped(x.orderId) },
  { name: "type", label: "bo.tx.type", cell: (tr, x) => html`<td>${typeName(tr, x.transactionType)}</td>` },
  { name: "status", label: "bo.tx.status", cell: (tr, x) => html`<td>${statusBadge(tr, x.status, x.payoutLetter)}</td>` },
  { name: "amount", label: "bo.tx.amount", numeric: true, cell: (tr, x) => html`<td class="num">${money(tr, x.amount)}</td>` },
  { name: "processor", label: "bo.tx.processor", cell: (_tr, x) => clipped(x.paymentProcessor) },
  { name: "card", label: "bo.tx.card", cell: (_tr, x) => clipped(x.card?.maskedNumber ?? "", true) },
  { name: "pin", label: "bo.tx.pin", cell: (_tr, x) => html`<td>${pinLink(x.merchantId, x.pin, true)}</td>` },
  { name: "frontend", label: "bo.tx.frontend", cell: (_tr, x) => clipped(x.frontend) },
  { name: "made_by", label: "bo.tx.madeBy", cell: (tr, x) => clipped(madeByKey(x) ? tr.t(madeByKey(x) as ConsoleKey) : x.createdBy) },
];

/** The columns shown when an operator has chosen none. */
export const DEFAULT_COLUMNS: readonly string[] = TRANSACTION_COLUMNS.filter((c) => c.name !== "frontend").map((c) => c.name);

/** The columns to show for a kept choice: the known ones in the catalogue's order, the trace id always; the default when none is known. */
export function columnsOf(chosen: readonly string[]): readonly Column[] {
  const wanted = new Set(chosen.filter((n) => TRANSACTION_COLUMNS.some((c) => c.name === n)));
  if (wanted.size === 0) return columnsOf(DEFAULT_COLUMNS);
  wanted.add("trace_id");
  return TRANSACTION_COLUMNS.filter((c) => wanted.has(c.name));
}

/** The page sizes the console offers (the engine keeps any from 10 to 200); 50 when none was chosen. */
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** The page size to use for a kept one (0: the default; one the console does not offer: the nearest below it). */
export function pageSizeOf(kept: number): number {
  if (!kept) return DEFAULT_PAGE_SIZE;
  return [...PAGE_SIZES].reverse().find((s) => s <= kept) ?? PAGE_SIZES[0];
}

export type { Column as TransactionColumn };
