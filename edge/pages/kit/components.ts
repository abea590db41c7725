/**
 * The pieces the hosted pages are made of, accessible by construction: a
 * field's label, hint and error are tied to it (for, aria-describedby,
 * aria-invalid), the error summary is announced (role=alert) and links to
 * each field, a form has one submit button, amounts come from integers.
 */
import { type Html, html } from "./html.ts";
import type { Translator } from "./i18n.ts";

export interface FieldSpec {
  /** The input's name, which the form posts. */
  name: string;
  /** Element id; defaults to the name. */
  id?: string;
  label: string;
  hint?: string;
  /** The error shown under the field; makes it aria-invalid. */
  error?: string;
  value?: string;
  type?: "text" | "email" | "tel" | "number" | "password";
  /** The standard autocomplete token (cc-number, cc-exp, cc-csc, cc-name, ...). */
  autocomplete?: string;
  inputmode?: "numeric" | "decimal" | "text" | "email";
  required?: boolean;
  maxlength?: number;
  /** A pattern the browser checks before sending (the server checks again). */
  pattern?: string;
  /** `ltr` for digits a customer checks as typed (a card number, an expiry) on a right-to-left page. */
  dir?: "ltr";
}

/** A labelled input with its hint and error. */
export function field(f: FieldSpec): Html {
  const id = f.id ?? f.name;
  const hintId = f.hint ? `${id}-hint` : undefined;
  const errorId = f.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ");
  return html`<div class="field${f.error ? " field-error" : ""}">
<label for="${id}">${f.label}</label>
${f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : ""}
${f.error ? html`<p class="error" id="${errorId}">${f.error}</p>` : ""}
<input id="${id}" name="${f.name}" type="${f.type ?? "text"}"${f.value !== undefined ? html` value="${f.value}"` : ""}${
    f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ""
  }${f.inputmode ? html` inputmode="${f.inputmode}"` : ""}${f.required ? html` required aria-required="true"` : ""}${
    f.maxlength ? html` maxlength="${f.maxlength}"` : ""
  }${f.pattern ? html` pattern="${f.pattern}"` : ""}${f.dir ? html` dir="${f.dir}"` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}${f.error ? html` aria-invalid="true"` : ""}>
</div>`;
}

export interface FieldError {
  /** The id of the field at fault. */
  field: string;
  message: string;
}

/**
 * The summary at the top of a form that failed: announced at once, each line a link to its field. A framed hosted
 * page posts it to its parent as cashier:error (code `invalid_fields`, the lines as `message`, the fields' ids).
 */
export function errorSummary(tr: Translator, errors: readonly FieldError[]): Html {
  if (errors.length === 0) return html``;
  const event = JSON.stringify({ code: "invalid_fields", message: errors.map((e) => e.message).join(" "), fields: errors.map((e) => e.field) });
  return html`<div class="error-summary" role="alert" tabindex="-1" id="error-summary" data-cashier-error="${event}">
<h2>${tr.t("kit.errorSummary", { count: errors.length })}</h2>
<ul>${errors.map((e) => html`<li><a href="#${e.field}">${e.message}</a></li>`)}</ul>
</div>`;
}

export interface ButtonSpec {
  label: string;
  id?: string;
  name?: string;
  value?: string;
  /** primary: the form's main action; secondary: an alternative; danger: a refusal or a cancel. */
  variant?: "primary" | "secondary" | "danger";
  type?: "submit" | "button";
  /** The full name for assistive technology when the visible label is short (it must contain the label's words). */
  ariaLabel?: string;
}

export function button(b: ButtonSpec): Html {
  return html`<button type="${b.type ?? "submit"}" class="button ${b.variant ?? "primary"}"${b.id ? html` id="${b.id}"` : ""}${
    b.ariaLabel ? html` aria-label="${b.ariaLabel}"` : ""
  }${b.name ? html` name="${b.name}"` : ""}${b.value !== undefined ? html` value="${b.value}"` : ""}>${b.label}</button>`;
}

export interface LinkOptions {
  /** "_top": leave a frame for the whole window (the merchant's return_url). */
  target?: "_top";
  /** The script posts cashier:close to the framing parent when it is followed. */
  closes?: boolean;
  variant?: "primary" | "secondary";
}

/** A link styled as a button, only to an http(s) URL (never javascript: or the like); otherwise nothing. */
export function linkButton(label: string, href: string, id?: string, o: LinkOptions = {}): Html {
  try {
    const u = new URL(href);
    if (u.protocol !== "http:" && u.protocol !== "https:") return html``;
  } catch {
    return html``;
  }
  return html`<a${id ? html` id="${id}"` : ""} class="button ${o.variant ?? "primary"}" href="${href}"${o.target ? html` target="${o.target}"` : ""}${
    o.closes ? html` data-cashier-close` : ""
  }>${label}</a>`;
}

/** A link to a page of this site (a path), styled as a button. */
export function pathButton(label: string, path: string, id?: string, variant: "primary" | "secondary" = "primary"): Html {
  return path.startsWith("/") && !path.startsWith("//") ? html`<a${id ? html` id="${id}"` : ""} class="button ${variant}" href="${path}">${label}</a>` : html``;
}

export interface Choice {
  value: string;
  label: string;
  /** The choice's element id (for the error summary's links and tests). */
  id: string;
  checked?: boolean;
}

/** A group of radio buttons under its legend, with the group's hint and error tied to it. */
export function radioGroup(g: {
  name: string;
  legend: string;
  choices: readonly Choice[];
  hint?: string;
  error?: string;
  id?: string;
  className?: string;
}): Html {
  const id = g.id ?? g.name;
  const hintId = g.hint ? `${id}-hint` : undefined;
  const errorId = g.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ");
  return html`<fieldset class="choices${g.className ? ` ${g.className}` : ""}${g.error ? " field-error" : ""}" id="${id}"${describedBy ? html` aria-describedby="${describedBy}"` : ""}>
<legend>${g.legend}</legend>
${g.hint ? html`<p class="hint" id="${hintId}">${g.hint}</p>` : ""}${g.error ? html`<p class="error" id="${errorId}">${g.error}</p>` : ""}
${g.choices.map(
  (c) =>
    html`<div class="choice"><input type="radio" name="${g.name}" id="${c.id}" value="${c.value}"${c.checked ? html` checked` : ""}><label for="${c.id}">${c.label}</label></div>`,
)}
</fieldset>`;
}

/** A checkbox with its label after it. */
export function checkbox(c: { name: string; label: string; id?: string; checked?: boolean; value?: string }): Html {
  const id = c.id ?? c.name;
  return html`<div class="choice"><input type="checkbox" name="${c.name}" id="${id}" value="${c.value ?? "1"}"${c.checked ? html` checked` : ""}><label for="${id}">${c.label}</label></div>`;
}

/** An amount as the customer's language writes it; the digits never go through a float. */
export function amountDisplay(tr: Translator, minor: bigint, currency: string, id?: string): Html {
  return html`<span class="amount"${id ? html` id="${id}"` : ""}>${tr.amount(minor, currency)}</span>`;
}

/** The hidden fields that tie a form to its page's session and CSRF token. */
export function hiddenFields(fields: Record<string, string>): Html {
  return html`${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}
