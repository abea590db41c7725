/**
 * "Check now" on a transaction left open: a plain POST form (CSRF token,
 * works without scripts, a real button), as a small button in each row of
 * the stuck-work page and as a section of the transaction's detail page with
 * an optional reason for the audit log. Shown where the engine says a check
 * has something to do (check_offered) and the role holds transaction.check;
 * the engine checks both again when the button is pressed.
 */
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { inputField } from "./controls.ts";

/** The reason's longest text, as the engine takes it. */
export const CHECK_REASON_MAX = 255;

/** The button of one row of the stuck-work page; the answer comes back to that page. */
export function checkRowButton(tr: ConsoleTranslator, traceId: number, csrf: string): Html {
  const t = tr.t;
  return html`<form method="post" action="/transactions/${traceId}/check" class="inline-actions">${hiddenFields({ [CSRF_FIELD]: csrf, from: "stuck" })}${button(
    {
      label: t("bo.check.button"),
      ariaLabel: t("bo.check.buttonLabel", { trace: traceId }),
      id: `check-${traceId}`,
      variant: "secondary",
    },
  )}</form>`;
}

/** The detail page's section: what a check does, an optional reason, the button. */
export function checkSection(tr: ConsoleTranslator, traceId: number, csrf: string): Html {
  const t = tr.t;
  return html`<section class="card" aria-labelledby="check-title">
<h2 id="check-title">${t("bo.check.title")}</h2>
<p>${t("bo.check.explain")}</p>
<form method="post" action="/transactions/${traceId}/check">${hiddenFields({ [CSRF_FIELD]: csrf, from: "detail" })}
${inputField({ name: "reason", id: "check-reason", label: t("bo.check.reason"), hint: t("bo.check.reasonHint"), maxlength: CHECK_REASON_MAX })}
<div class="actions">${button({ label: t("bo.check.button"), id: "check-now" })}</div>
</form>
</section>`;
}
