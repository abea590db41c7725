/**
 * The dashboard's period control: a GET form (the period is in the link, so
 * it can be shared), the choices as radio buttons on one line and the custom
 * days beside them; it works without scripts.
 */
import { button } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import type { Period, PeriodName } from "../routes/dashboard-period.ts";
import { inputField } from "./controls.ts";

const CHOICES: readonly [PeriodName, ConsoleKey][] = [
  ["24h", "bo.dash.hours24"],
  ["today", "bo.dash.today"],
  ["7d", "bo.dash.days7"],
  ["30d", "bo.dash.days30"],
  ["custom", "bo.dash.custom"],
];

/** The form, with the period shown checked. */
export function periodForm(tr: ConsoleTranslator, p: Period): Html {
  const t = tr.t;
  return html`<form method="get" action="/" class="filters compact period" id="period-form" aria-label="${t("bo.dash.periodLabel")}">
<fieldset class="period-choice"><legend>${t("bo.dash.periodLabel")}</legend>${CHOICES.map(
    ([name, label]) =>
      html`<label class="check"><input type="radio" name="period" value="${name}" id="period-${name}"${p.name === name ? html` checked` : ""}> ${t(label)}</label>`,
  )}</fieldset>
${inputField({ name: "from", id: "period-from", label: t("bo.dash.from"), type: "date", value: p.from })}
${inputField({ name: "to", id: "period-to", label: t("bo.dash.to"), type: "date", value: p.to })}
<div class="actions">${button({ label: t("bo.dash.show"), id: "period-show" })}</div>
</form>`;
}
