/**
 * Form controls the kit's components.ts does not have (a select, a text area,
 * inputs of other types), built the same way: the label tied by `for`, a hint
 * by aria-describedby, one place for escaping.
 */
import { type Html, html } from "../../pages/kit/html.ts";

export interface Option {
  value: string;
  label: string;
}

export function selectField(f: {
  name: string;
  id?: string;
  label: string;
  options: readonly Option[];
  value?: string;
  hint?: string;
  required?: boolean;
}): Html {
  const id = f.id ?? f.name;
  const hintId = f.hint ? `${id}-hint` : undefined;
  return html`<div class="field"><label for="${id}">${f.label}</label>
${f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : ""}
<select id="${id}" name="${f.name}"${f.required ? html` required` : ""}${hintId ? html` aria-describedby="${hintId}"` : ""}>${f.options.map(
    (o) => html`<option value="${o.value}"${o.value === (f.value ?? "") ? html` selected` : ""}>${o.label}</option>`,
  )}</select></div>`;
}

export function inputField(f: {
  name: string;
  id?: string;
  label: string;
  type?: "text" | "date" | "datetime-local" | "number" | "search" | "url";
  value?: string;
  hint?: string;
  inputmode?: "numeric" | "decimal" | "text" | "email";
  maxlength?: number;
  required?: boolean;
}): Html {
  const id = f.id ?? f.name;
  const hintId = f.hint ? `${id}-hint` : undefined;
  return html`<div class="field"><label for="${id}">${f.label}</label>
${f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : ""}
<input id="${id}" name="${f.name}" type="${f.type ?? "text"}" value="${f.value ?? ""}"${f.inputmode ? html` inputmode="${f.inputmode}"` : ""}${
    f.maxlength ? html` maxlength="${f.maxlength}"` : ""
  }${f.required ? html` required` : ""}${hintId ? html` aria-describedby="${hintId}"` : ""}></div>`;
}

export function textArea(f: { name: string; id?: string; label: string; hint?: string; maxlength?: number; value?: string }): Html {
  const id = f.id ?? f.name;
  const hintId = f.hint ? `${id}-hint` : undefined;
  return html`<div class="field"><label for="${id}">${f.label}</label>
${f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : ""}
<textarea id="${id}" name="${f.name}" rows="3"${f.maxlength ? html` maxlength="${f.maxlength}"` : ""}${hintId ? html` aria-describedby="${hintId}"` : ""}>${f.value ?? ""}</textarea></div>`;
}

/**
 * A table in a scrollable box, with a caption (the table's accessible name).
 * The box is a named region that takes the focus, so that a keyboard can
 * scroll a table wider than the page (axe's scrollable-region-focusable).
 */
export function dataTable(f: {
  id?: string;
  caption: string;
  /** The box's name when the caption alone repeats on the page (one "Replies" table per callback). */
  label?: string;
  head: readonly (string | Html)[];
  rows: readonly Html[];
  empty: string;
  numeric?: readonly number[];
  /** Rows one line each whose first link j/k and the arrows move between (console.js); the keys told in the caption. */
  rowNav?: string;
}): Html {
  const num = new Set(f.numeric ?? []);
  return html`<div class="table-wrap${f.rowNav ? " rows" : ""}" role="region" tabindex="0" aria-label="${f.label ?? f.caption}"><table${f.id ? html` id="${f.id}"` : ""}${
    f.rowNav ? html` data-row-nav` : ""
  }><caption><span class="caption-text">${f.caption}${f.rowNav ? html` <span class="row-nav-hint">${f.rowNav}</span>` : ""}</span></caption>
<thead><tr>${f.head.map((h, i) => html`<th scope="col"${num.has(i) ? html` class="num"` : ""}>${h}</th>`)}</tr></thead>
<tbody>${f.rows.length ? f.rows : html`<tr><td colspan="${f.head.length}" class="muted">${f.empty}</td></tr>`}</tbody></table></div>`;
}
