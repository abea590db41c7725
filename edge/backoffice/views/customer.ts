/**
 * The customer page (one merchant's PIN): blocks and their forms first (what
 * an agent acts on), then totals by type, status and currency (amounts from
 * the integer minor units, in the page's language), cards with the closed
 * loop's answer and the block that holds each, hosted Cashier sessions, notes
 * with their form, and every transaction, paged, each linking to its detail.
 */
import type { GetCustomerResponse } from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { dataTable, textArea } from "./controls.ts";
import { blockForm, blocksTable } from "./customer-blocks.ts";
import { customerHref } from "./customer-link.ts";
import { statusBadge, text, typeName, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";

/** A note's longest text, as the engine takes it (console/domain/customer-rules.ts). */
export const NOTE_MAX = 1000;

export interface CustomerView {
  merchantId: string;
  pin: string;
  customer: GetCustomerResponse;
  transactions: readonly Transaction[];
  nextPageToken: string;
  canNote: boolean;
  canBlock: boolean;
  canUnblock: boolean;
  csrf: string;
  notice?: Notice;
}

const SESSION_STATES: Readonly<Record<string, ConsoleKey>> = {
  unopened: "bo.customer.stateUnopened",
  open: "bo.customer.stateOpen",
  expired: "bo.customer.stateExpired",
};
const INTENTS: Readonly<Record<string, ConsoleKey>> = { deposit: "bo.customer.intentDeposit", withdrawal: "bo.customer.intentWithdrawal" };

const yesNo = (tr: ConsoleTranslator, v: boolean) => (v ? tr.t("bo.yes") : tr.t("bo.no"));

function totals(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  return dataTable({
    id: "customer-totals",
    caption: t("bo.customer.totalsCaption"),
    head: [t("bo.tx.type"), t("bo.tx.status"), t("bo.customer.currency"), t("bo.customer.count"), t("bo.tx.amount")],
    numeric: [3, 4],
    rows: v.customer.totals.map(
      (x) =>
        html`<tr><td>${typeName(tr, x.transactionType)}</td><td>${statusBadge(tr, x.status)}</td><td>${x.currency}</td><td class="num">${x.count}</td><td class="num"><span class="amount">${tr.amount(x.amountMinor, x.currency)}</span></td></tr>`,
    ),
    empty: t("bo.customer.noTotals"),
  });
}

function cards(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  return dataTable({
    id: "customer-cards",
    caption: t("bo.customer.cardsCaption"),
    head: [
      t("bo.tx.card"),
      t("bo.customer.brand"),
      t("bo.customer.expiry"),
      t("bo.customer.saved"),
      t("bo.customer.withdrawals"),
      t("bo.customer.blockedBy"),
      t("bo.tx.trace"),
    ],
    rows: v.customer.cards.map(
      (c) =>
        html`<tr><td><bdi dir="ltr">${c.maskedNumber}</bdi></td><td>${c.brand}</td><td>${c.expiry}</td><td>${yesNo(tr, c.saved)}</td><td>${yesNo(tr, c.withdrawalsAllowed)}</td><td>${
          c.blockId > 0n ? html`<span class="status bad">${c.blockId.toString()}</span>` : text("")
        }</td><td><a href="/transactions/${c.traceId}">${c.traceId}</a></td></tr>`,
    ),
    empty: t("bo.customer.noCards"),
  });
}

function sessions(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  return dataTable({
    id: "customer-sessions",
    caption: t("bo.customer.sessionsCaption"),
    head: [
      t("bo.customer.session"),
      t("bo.customer.intent"),
      t("bo.customer.state"),
      t("bo.tx.frontend"),
      t("bo.customer.currency"),
      t("bo.customer.started"),
      t("bo.customer.ends"),
    ],
    rows: v.customer.sessions.map(
      (s) =>
        html`<tr><td>${s.id.toString()}</td><td>${INTENTS[s.intent] ? t(INTENTS[s.intent]) : s.intent}</td><td>${SESSION_STATES[s.state] ? t(SESSION_STATES[s.state]) : s.state}</td><td>${s.frontend}</td><td>${s.currency}</td><td>${when(tr, s.createTime)}</td><td>${when(tr, s.expireTime)}</td></tr>`,
    ),
    empty: t("bo.customer.noSessions"),
  });
}

function notes(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  const list = v.customer.notes.length
    ? html`<ol class="notes" id="customer-notes">${v.customer.notes.map(
        (n) => html`<li><p class="note-text">${n.text}</p><p class="muted">${n.createdBy}, ${when(tr, n.createTime)}</p></li>`,
      )}</ol>`
    : html`<p class="muted" id="customer-notes">${t("bo.customer.noNotes")}</p>`;
  const form = v.canNote
    ? html`<form method="post" action="/customer/notes" id="note-form">${hiddenFields({ [CSRF_FIELD]: v.csrf, merchant_id: v.merchantId, pin: v.pin })}
${textArea({ name: "text", id: "note-text", label: t("bo.customer.noteText"), hint: t("bo.customer.noteHint"), maxlength: NOTE_MAX })}
<div class="actions">${button({ label: t("bo.customer.addNote"), id: "note-submit" })}</div></form>`
    : "";
  return html`${list}${form}`;
}

function transactions(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  const table = dataTable({
    id: "customer-transactions",
    caption: t("bo.customer.transactionsCaption"),
    head: [t("bo.tx.trace"), t("bo.tx.created"), t("bo.tx.order"), t("bo.tx.type"), t("bo.tx.status"), t("bo.tx.amount"), t("bo.tx.card"), t("bo.tx.error")],
    numeric: [5],
    rows: v.transactions.map(
      (x) =>
        html`<tr><td><a href="/transactions/${x.traceId}">${x.traceId}</a></td><td>${when(tr, x.createTime)}</td><td><bdi>${x.orderId}</bdi></td><td>${typeName(tr, x.transactionType)}</td><td>${statusBadge(
          tr,
          x.status,
          x.payoutLetter,
        )}</td><td class="num">${x.amount ? html`<span class="amount">${tr.amount(x.amount.amountMinor, x.amount.currency)}</span>` : text("")}</td><td><bdi dir="ltr">${text(
          x.card?.maskedNumber,
        )}</bdi></td><td>${text(x.errorCode ? `${x.errorCode} ${x.errorDetails}` : "")}</td></tr>`,
    ),
    empty: t("bo.customer.noTransactions"),
  });
  const next = v.nextPageToken
    ? html`<p><a href="${customerHref(v.merchantId, v.pin, { page_token: v.nextPageToken })}" id="customer-next">${t("bo.customer.next")}</a></p>`
    : "";
  return html`${table}${next}`;
}

export function customerPage(tr: ConsoleTranslator, v: CustomerView): Html {
  const t = tr.t;
  const b = {
    merchantId: v.merchantId,
    pin: v.pin,
    blocks: v.customer.blocks,
    cards: v.customer.cards,
    canBlock: v.canBlock,
    canUnblock: v.canUnblock,
    csrf: v.csrf,
  };
  return html`<h1>${t("bo.customer.title", { name: v.pin, merchant: v.merchantId })}</h1>
${noticeBox(v.notice)}
${v.customer.emails.length ? html`<p id="customer-emails">${t("bo.customer.emails", { list: v.customer.emails.join(", ") })}</p>` : ""}
<section class="card" aria-labelledby="blocks-title"><h2 id="blocks-title">${t("bo.customer.blocks")}</h2>
${blocksTable(tr, b)}
${v.canBlock ? html`<h3>${t("bo.customer.newBlock")}</h3>${blockForm(tr, b)}` : ""}
</section>
<section aria-labelledby="totals-title"><h2 id="totals-title">${t("bo.customer.totals")}</h2>${totals(tr, v)}</section>
<section aria-labelledby="cards-title"><h2 id="cards-title">${t("bo.customer.cards")}</h2>${cards(tr, v)}</section>
<section aria-labelledby="sessions-title"><h2 id="sessions-title">${t("bo.customer.sessions")}</h2>${sessions(tr, v)}</section>
<section class="card" aria-labelledby="notes-title"><h2 id="notes-title">${t("bo.customer.notes")}</h2>${notes(tr, v)}</section>
<section aria-labelledby="transactions-title"><h2 id="transactions-title">${t("bo.customer.transactions")}</h2>${transactions(tr, v)}</section>`;
}
