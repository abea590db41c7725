/**
 * The step between pressing Cancel (a pending withdrawal) or Remove (a saved
 * card) and the engine acting on it: a page of its own that says what will
 * happen, with "Yes" (the same form again, carrying `confirm=1`) and a way
 * back that changes nothing. A page, not a dialog of the script, so that it
 * works the same without scripts; a misplaced tap costs one more tap, never
 * a withdrawal or a card.
 */
import { button, hiddenFields, pathButton } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { type SessionPage, sessionPath } from "../paths.ts";
import { type CashierPage, type PageContext, type SessionFrame, sessionPage } from "./page.ts";
import { formTokens } from "./parts.ts";

/** The form field that says the customer confirmed. */
export const CONFIRM_FIELD = "confirm";

export interface Confirmation {
  title: string;
  body: string;
  /** The form's action, and what it carries besides the tokens (the withdrawal's trace_id, the card's id). */
  action: SessionPage;
  fields: Record<string, string>;
  yes: string;
  no: string;
  /** Where "no" leads: the page the customer came from. */
  back: SessionPage;
  csrfToken: string;
}

export function confirmPage(c: PageContext, f: SessionFrame, k: Confirmation): CashierPage {
  const body: Html = html`<h1>${k.title}</h1>
<p id="confirm-body">${k.body}</p>
<form method="post" action="${sessionPath(f.sessionToken, k.action, f.parent)}">${formTokens(f.sessionToken, k.csrfToken)}${hiddenFields({
    ...k.fields,
    [CONFIRM_FIELD]: "1",
  })}
<p class="actions">${button({ label: k.yes, id: "confirm-yes", variant: "danger" })}${pathButton(k.no, sessionPath(f.sessionToken, k.back, f.parent), "confirm-no", "secondary")}</p>
</form>`;
  return sessionPage(c, f, { title: k.title, body });
}
