/**
 * The Cashier's notices: a heading and a sentence, nothing else. A used or
 * expired autologin link says only that (not whose it was, not why); errors
 * never show an internal text.
 */
import { html } from "../../pages/kit/html.ts";
import type { MessageKey, MessageValues } from "../../pages/kit/i18n.ts";
import { type CashierPage, type PageContext, plainPage } from "./page.ts";

export type NoticeKind = "autologin" | "ended" | "notFound" | "unavailable" | "failed" | "tooMany" | "notAllowed" | "taken";

const HTTP: Readonly<Record<NoticeKind, number>> = {
  autologin: 410,
  ended: 410,
  notFound: 404,
  unavailable: 503,
  failed: 500,
  tooMany: 429,
  notAllowed: 403,
  // The withdrawal's order_id already names an order the platform made another way (Process).
  taken: 409,
};

/**
 * `parent`: the framing origin the page may post its events to, already proven (the session's ended page after a
 * form of that session: session-pages.ts). The ended page carries cashier:expired (CONTRACT 12).
 */
export function noticePage(c: PageContext, kind: NoticeKind, values: MessageValues = {}, parent?: string): CashierPage {
  const title = c.tr.t(`cashier.notice.${kind}.title` as MessageKey);
  return plainPage(c, {
    http: HTTP[kind],
    title,
    body: html`<h1>${title}</h1>\n<p id="notice"${kind === "ended" ? html` data-cashier-expired` : ""}>${c.tr.t(`cashier.notice.${kind}.body` as MessageKey, values)}</p>`,
    headers: kind === "tooMany" ? { "Retry-After": String(values.seconds ?? 60) } : {},
    parent,
  });
}

/** The page's own refusal of what the browser sent (no CSRF token, a form too large or of another type). */
export function refusedPage(c: PageContext, http: number, message: MessageKey, values: MessageValues = {}): CashierPage {
  return plainPage(c, {
    http,
    title: c.tr.t("kit.refused.heading"),
    body: html`<h1>${c.tr.t("kit.refused.heading")}</h1>\n<p id="notice">${c.tr.t(message, values)}</p>`,
  });
}
