/**
 * HTML by construction: the `html` tagged template escapes every interpolated
 * value, so a view cannot forget to. Trusted markup (another template's
 * result, a fragment the kit built) is an `Html` value and goes in as it is;
 * a string never does. Lists are joined, and null, undefined and false render
 * nothing, so conditionals read naturally.
 */

/** Markup that is already safe: made by `html` or, for a fixed literal, by `raw`. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Escapes the five characters that can end a text node or an attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A value as it may appear in a template. */
export type Interpolation = Html | string | number | bigint | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof Html) return value.value;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** The tagged template: `html\`<p>${text}</p>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Marks a string as trusted markup. Only for literals the code itself writes, never for input. */
export function raw(markup: string): Html {
  return new Html(markup);
}
