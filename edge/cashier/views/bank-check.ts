/**
 * The step between the deposit form and a 3-D Secure check: a page that sends
 * the browser on at once (a refresh of 0 seconds, scripts or not) to the
 * check's address, with a link for a browser that does not follow refreshes.
 * The deposit form's answer cannot itself lead to an acquirer's page: the
 * Cashier's CSP `form-action` holds for every redirect that follows a form,
 * and an acquirer's 3-D Secure page is on its own site. A navigation of its own
 * starts afresh, and the challenge address's redirect to the acquirer passes.
 * The page posts no event to a framing parent: it is gone before it is seen.
 */
import { linkButton } from "../../pages/kit/components.ts";
import { html } from "../../pages/kit/html.ts";
import { type CashierPage, type PageContext, type SessionFrame, sessionPage } from "./page.ts";

/**
 * The page leading to `target`, the challenge's own address on this site (with the declared parent, so that the
 * pages after it post their events), or undefined when `target` is not an http(s) address.
 */
export function bankCheckPage(c: PageContext, f: SessionFrame, target: string): CashierPage | undefined {
  let href: string;
  try {
    const u = new URL(target);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    // Serialised, so that no quote of the address can end the refresh's URL early.
    href = u.href;
  } catch {
    return undefined;
  }
  const t = c.tr.t;
  const body = html`<h1>${t("cashier.bankCheck.heading")}</h1>
<p id="bank-check-message">${t("cashier.bankCheck.body")}</p>
<p class="actions">${linkButton(t("cashier.bankCheck.continue"), href, "to-bank")}</p>`;
  // No parent: the page announces nothing to the frame's parent, it only passes through.
  return sessionPage(c, { ...f, parent: undefined }, { title: t("cashier.bankCheck.heading"), body, goTo: href });
}
