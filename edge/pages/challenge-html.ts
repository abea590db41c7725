/**
 * The 3-D Secure challenge pages as pure functions: data and a language in,
 * HTML out, built with the pages' kit (escaping by construction, texts from
 * the catalogues, the edge's own stylesheet and script under a per-response
 * nonce), so the strict Content-Security-Policy holds and the pages can be
 * table-tested.
 */
import type { Reason } from "../../engine/shared/errors.ts";
import { amountDisplay, button, linkButton } from "./kit/components.ts";
import { type Html, html } from "./kit/html.ts";
import { type Locale, type MessageKey, type MessageValues, type Translator, translator } from "./kit/i18n.ts";
import { layout } from "./kit/layout.ts";
import { httpOrigin, newNonce, pageHeaders as kitHeaders } from "./kit/security.ts";

export { escapeHtml } from "./kit/html.ts";
export { httpOrigin } from "./kit/security.ts";

/** What the open challenge shows. Amounts stay integers in minor units until formatted. */
export interface ChallengeView {
  orderId: string;
  amountMinor: bigint;
  currency: string;
  maskedCard: string;
}

/** One response's language and nonce. */
export interface PageKit {
  tr: Translator;
  nonce: string;
  /** The framing parent's origin the page's script posts its events to (a challenge of a framed Cashier). */
  parentOrigin?: string;
}

/** A language's kit with a fresh nonce. */
export function kitFor(locale: Locale = "en", nonce = newNonce()): PageKit {
  return { tr: translator(locale), nonce };
}

export interface Page {
  http: number;
  html: string;
  /** The nonce the page's tags carry, for its Content-Security-Policy. */
  nonce: string;
}

/**
 * Headers of every challenge page: only the edge's own assets under the
 * nonce, the form may post only here (and be redirected to the merchant), no
 * framing (the challenge link may come from any Process caller) except by the
 * allowed_origins of the hosted Cashier the deposit was made in, no caching,
 * no referrer carrying the challenge's MAC to the merchant.
 */
export function pageHeaders(returnUrl = "", nonce = "", tls = false, frameAncestors: readonly string[] = []): Record<string, string> {
  const origin = httpOrigin(returnUrl);
  return kitHeaders({ nonce, formTargets: origin ? [origin] : [], tls, customerData: true, frameAncestors });
}

function page(kit: PageKit, http: number, title: string, body: Html): Page {
  return { http, nonce: kit.nonce, html: layout({ tr: kit.tr, nonce: kit.nonce, title, body, parentOrigin: kit.parentOrigin }).value };
}

/** A link back to the merchant, only for an http(s) return_url (never javascript: or the like). */
function continueLink(kit: PageKit, returnUrl: string): Html {
  const link = linkButton(kit.tr.t("kit.continue"), returnUrl, "continue");
  return link.value ? html`<p>${link}</p>` : html``;
}

/**
 * One form per answer, each with its one submit button, as every form of the
 * Cashier has. They have no action: they post back to the page's own address,
 * whatever path CASHIER_PUBLIC_URL has.
 */
export function openPage(view: ChallengeView, kit = kitFor()): Page {
  const t = kit.tr.t;
  return page(
    kit,
    200,
    t("challenge.title"),
    html`<h1>${t("challenge.title")}</h1>
<p>${t("challenge.intro")}</p>
<dl><dt>${t("challenge.order")}</dt><dd id="order"><bdi>${view.orderId}</bdi></dd>
<dt>${t("challenge.amount")}</dt><dd id="amount">${amountDisplay(kit.tr, view.amountMinor, view.currency)}</dd>
<dt>${t("challenge.card")}</dt><dd id="card"><bdi dir="ltr">${view.maskedCard}</bdi></dd></dl>
<div class="actions">
<form method="post">${button({ id: "approve", name: "result", value: "approve", label: t("challenge.approve") })}</form>
<form method="post">${button({ id: "fail", name: "result", value: "fail", label: t("challenge.fail"), variant: "danger" })}</form>
</div>`,
  );
}

/** A page with a heading, one paragraph and, when given, the way back to the merchant. */
function notice(kit: PageKit, http: number, prefix: "finished" | "expired" | "notFound" | "unavailable", returnUrl = ""): Page {
  const t = kit.tr.t;
  return page(
    kit,
    http,
    t(`challenge.${prefix}.title`),
    html`<h1>${t(`challenge.${prefix}.heading`)}</h1>
<p>${t(`challenge.${prefix}.body`)}</p>${continueLink(kit, returnUrl)}`,
  );
}

export function finishedPage(returnUrl: string, kit = kitFor()): Page {
  return notice(kit, 200, "finished", returnUrl);
}

export function expiredPage(returnUrl: string, kit = kitFor()): Page {
  return notice(kit, 410, "expired", returnUrl);
}

/** The page's own refusal of what the browser sent (a wrong form field, a body too large), in the customer's language. */
export function refusedPage(http: number, message: MessageKey, values: MessageValues = {}, kit = kitFor()): Page {
  const t = kit.tr.t;
  return page(kit, http, t("challenge.title"), html`<h1>${t("kit.refused.heading")}</h1>\n<p>${t(message, values)}</p>`);
}

/** The one table from an engine refusal to a page: no internal text is ever shown. */
export function refusalPage(reason: Reason, kit = kitFor()): Page {
  switch (reason) {
    // The engine refusing the trace_id or MAC in any way means: no such check.
    case "NOT_FOUND":
    case "NO_ROUTE":
    case "INVALID_FIELDS":
    case "MALFORMED_BODY":
      return notice(kit, 404, "notFound");
    case "UNAVAILABLE":
      return notice(kit, 503, "unavailable");
    default: {
      const t = kit.tr.t;
      return page(kit, 500, t("challenge.title"), html`<h1>${t("challenge.failed.heading")}</h1>\n<p>${t("challenge.failed.body")}</p>`);
    }
  }
}

export function notFoundPage(kit = kitFor()): Page {
  return notice(kit, 404, "notFound");
}
