/**
 * The hosted payment fields (CONTRACT 12): a page of card inputs only (number,
 * expiry, security code, name, with their autocomplete tokens cc-number,
 * cc-exp, cc-csc, cc-name) and one submit button, framed by the frontend's
 * allowed_origins only. Its errors show in the frame, tied to their fields as
 * on the deposit form; the page that follows a taken card says so, carries the
 * token for the script to post to the parent, and tells a browser without
 * scripts that the card could not reach the shop's page (docs/integration.md,
 * Hosted payment fields). Card numbers and codes are never written back.
 */
import type { SubmitFieldsResponse } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { type FieldError, button, errorSummary, field, pathButton } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { layout } from "../../pages/kit/layout.ts";
import { pageHeaders } from "../../pages/kit/security.ts";
import { ASSETS_OF_CASHIER } from "../assets.ts";
import { FIELDS_SCRIPT } from "../fields-script.ts";
import { sessionPath } from "../paths.ts";
import { type CashierPage, type PageContext, type SessionFrame, secondsLeft } from "./page.ts";
import { brandName, errorOf, formTokens } from "./parts.ts";

export interface FieldsForm {
  csrfToken: string;
  holder?: string;
  errors?: readonly FieldError[];
}

/** A fields page: framed by allowed_origins only, the pages' scripts and the fields' own. */
function fieldsPage(c: PageContext, f: SessionFrame, p: { http: number; title: string; body: Html }): CashierPage {
  return {
    http: p.http,
    headers: pageHeaders({ nonce: c.nonce, frameAncestors: f.session.frontendSettings?.allowedOrigins ?? [], tls: c.tls, customerData: true }),
    html: layout({
      tr: c.tr,
      nonce: c.nonce,
      title: p.title,
      body: p.body,
      parentOrigin: f.parent,
      // The page posts cashier:expired when the session's time passes, as the Cashier's pages do.
      expiresIn: secondsLeft(f.session),
      scripts: [ASSETS_OF_CASHIER.form, FIELDS_SCRIPT],
    }).value,
  };
}

export function fieldsFormPage(c: PageContext, f: SessionFrame, form: FieldsForm): CashierPage {
  const t = c.tr.t;
  const errors = form.errors ?? [];
  const refusal =
    errors.length > 0
      ? html` data-fields-error="${JSON.stringify({ code: "invalid_fields", message: errors.map((e) => e.message).join(" "), fields: errors.map((e) => e.field) })}"`
      : "";
  const body = html`<h1>${t("cashier.fields.title")}</h1>
${errorSummary(c.tr, errors)}
<form method="post" action="${sessionPath(f.sessionToken, "fields", f.parent)}" novalidate data-card-form${refusal}>
${formTokens(f.sessionToken, form.csrfToken)}
${field({ name: "card_number", label: t("cashier.card.number"), hint: t("cashier.card.numberHint"), error: errorOf(errors, "card_number"), autocomplete: "cc-number", inputmode: "numeric", maxlength: 23, dir: "ltr" })}
<p class="brand" id="card_number-brand" aria-live="polite" data-template="${t("cashier.card.brand", { brand: "%BRAND%" })}"></p>
<p class="hint luhn" id="card_number-luhn" hidden>${t("cashier.card.luhn")}</p>
${field({ name: "card_exp", label: t("cashier.card.expiry"), error: errorOf(errors, "card_exp"), autocomplete: "cc-exp", inputmode: "numeric", maxlength: 7, dir: "ltr" })}
${field({ name: "cvv", label: t("cashier.card.cvv"), hint: t("cashier.card.cvvHint"), error: errorOf(errors, "cvv"), type: "password", autocomplete: "cc-csc", inputmode: "numeric", maxlength: 4, dir: "ltr" })}
${field({ name: "holder", label: t("cashier.card.holder"), error: errorOf(errors, "holder"), autocomplete: "cc-name", value: form.holder, maxlength: 64 })}
${button({ label: t("cashier.fields.submit"), id: "use-card" })}
</form>`;
  return fieldsPage(c, f, { http: errors.length > 0 ? 400 : 200, title: t("cashier.fields.title"), body });
}

/**
 * The page after a taken card: the card as the platform may show it, the token for the script (never shown), and,
 * for a browser without scripts, that the card could not reach the shop's page and nothing was charged.
 */
export function fieldsDonePage(c: PageContext, f: SessionFrame, minted: SubmitFieldsResponse): CashierPage {
  const t = c.tr.t;
  const card = minted.card;
  const event = JSON.stringify({ card_token: minted.cardToken, brand: card?.brand ?? "", masked: card?.maskedNumber ?? "", expiry: card?.expiry ?? "" });
  const label = t("cashier.source.saved", { brand: brandName(card?.brand ?? ""), last4: (card?.maskedNumber ?? "").slice(-4), expiry: card?.expiry ?? "" });
  const body = html`<div data-fields-token="${event}">
<h1>${t("cashier.fields.done.title")}</h1>
<p id="fields-card">${t("cashier.fields.done.body", { card: label })}</p>
<noscript><p id="fields-no-script">${t("cashier.fields.done.noScript")}</p></noscript>
<p class="actions">${pathButton(t("cashier.fields.another"), sessionPath(f.sessionToken, "fields", f.parent), "another-card", "secondary")}</p>
</div>`;
  return fieldsPage(c, f, { http: 200, title: t("cashier.fields.done.title"), body });
}
