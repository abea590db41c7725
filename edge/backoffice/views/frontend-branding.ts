/**
 * A frontend's Branding section (docs/backoffice.md, Branding): the hosted page's header as it looks now, and for an
 * admin the form of a draft (display name, three colours, corners, logo) with Preview and Save, and after a preview
 * the header drawn with the draft as the engine answered it and each colour pair's contrast as the engine measured
 * it. The edge judges no colour: a pair is shown passing because the engine accepted the draft, and a refused one is
 * the engine's words beside its field. Colours reach the page as CSS custom properties in the page's nonce'd <style>
 * (no inline style attribute under the strict CSP), each re-read as #rrggbb so that no text leaves its declaration;
 * logos are served by the Backoffice itself (routes/frontend-branding.ts), so that img-src 'self' holds.
 */
import type { BrandingContrast } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { FrontendBranding } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { button, checkbox, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { dataTable, selectField } from "./controls.ts";

/** The draft as typed (or as stored): colours as text, the logo by its hash. */
export interface BrandingValues {
  displayName: string;
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
  cornerStyle: string;
  /** The stored or previewed logo the save names; empty: none. */
  logoSha256: string;
}

export interface BrandingSectionView {
  /** The form's action. */
  action: string;
  csrf: string;
  canUpdate: boolean;
  /** The frontend's branding as stored; undefined: not branded. */
  stored: FrontendBranding | undefined;
  values: BrandingValues;
  errors: readonly FieldError[];
  /** The engine's answer to the draft's preview. */
  preview?: { branding: FrontendBranding; contrasts: readonly BrandingContrast[] };
}

/** The draft's inputs by the branding's field names, which the engine's refusals name. */
export const BRANDING_INPUTS = {
  display_name: "brand-display_name",
  primary_color: "brand-primary_color",
  background_color: "brand-background_color",
  text_color: "brand-text_color",
  corner_style: "brand-corner_style",
  logo_png: "brand-logo",
  logo_sha256: "brand-logo",
} as const;

const CORNERS = ["square", "rounded", "pill"] as const;
const HEX = /^#[0-9a-f]{6}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A logo's address on the Backoffice (routes/frontend-branding.ts serves it). */
export const consoleLogoPath = (sha256: string) => `/logos/${sha256}.png`;

/** The stored branding as the form's values. */
export function brandingValues(b: FrontendBranding | undefined): BrandingValues {
  return {
    displayName: b?.displayName ?? "",
    primaryColor: b?.primaryColor ?? "",
    backgroundColor: b?.backgroundColor ?? "",
    textColor: b?.textColor ?? "",
    cornerStyle: b?.cornerStyle || "rounded",
    logoSha256: b?.logoSha256 ?? "",
  };
}

/** The CSS of one sample header (#id): the engine's colours as custom properties; none when a value is not #rrggbb. */
function sampleCss(id: string, b: FrontendBranding): string {
  const colours = [b.backgroundColor, b.textColor, b.primaryColor, b.buttonTextColor];
  if (!colours.every((c) => HEX.test(c))) return "";
  return `#${id}{--brand-paper:${b.backgroundColor};--brand-ink:${b.textColor};--brand-primary:${b.primaryColor};--brand-on-primary:${b.buttonTextColor}}`;
}

/** The page's <style> for the section's samples: the stored look and the previewed one. */
export function brandingCss(v: BrandingSectionView): string {
  return [v.stored ? sampleCss("brand-now", v.stored) : "", v.preview ? sampleCss("brand-draft", v.preview.branding) : ""].join("");
}

/** The hosted page's header and a line of its page, as the hosted Cashier draws them with `b`. */
function sample(tr: ConsoleTranslator, id: string, b: FrontendBranding): Html {
  const corner = (CORNERS as readonly string[]).includes(b.cornerStyle) ? b.cornerStyle : "rounded";
  const logo = SHA256.test(b.logoSha256)
    ? html`<img class="merchant-logo" src="${consoleLogoPath(b.logoSha256)}" alt="${b.displayName}" id="${id}-logo">`
    : html`<p class="merchant-name">${b.displayName}</p>`;
  return html`<div class="brand-sample corner-${corner}" id="${id}"><header class="merchant-header">${logo}</header>
<p>${tr.t("bo.brand.sampleText")}</p><p><span class="brand-sample-button">${tr.t("bo.brand.sampleButton")}</span></p></div>`;
}

/** The engine's contrasts: each pair, its colours and ratio, passing as the engine accepted the draft. */
function contrastTable(tr: ConsoleTranslator, contrasts: readonly BrandingContrast[]): Html {
  const t = tr.t;
  const pairName = (pair: string) => (["text", "button_text", "approval", "refusal"].includes(pair) ? t(`bo.brand.pair.${pair}` as ConsoleKey) : pair);
  return dataTable({
    id: "brand-contrasts",
    caption: t("bo.brand.contrastCaption"),
    head: [t("bo.brand.pair"), t("bo.brand.colours"), t("bo.brand.ratio"), t("bo.brand.result")],
    rows: contrasts.map(
      (c) =>
        html`<tr><th scope="row">${pairName(c.pair)}</th><td><code>${c.foreground}</code> / <code>${c.background}</code></td><td>${c.ratio}</td><td class="status-ok">${t("bo.brand.passes")}</td></tr>`,
    ),
    empty: "",
  });
}

function brandingForm(tr: ConsoleTranslator, v: BrandingSectionView): Html {
  const t = tr.t;
  const errorOf = (id: string) =>
    v.errors
      .filter((e) => e.field === id)
      .map((e) => e.message)
      .join(" ") || undefined;
  const colour = (name: "primary_color" | "background_color" | "text_color", label: ConsoleKey, value: string) =>
    field({
      name,
      id: BRANDING_INPUTS[name],
      label: t(label),
      hint: t("bo.brand.colourHint"),
      value,
      maxlength: 7,
      autocomplete: "off",
      dir: "ltr",
      error: errorOf(BRANDING_INPUTS[name]),
    });
  const logoError = errorOf(BRANDING_INPUTS.logo_png);
  const cornerError = errorOf(BRANDING_INPUTS.corner_style);
  return html`<form method="post" action="${v.action}" enctype="multipart/form-data" id="branding-form" novalidate>
${hiddenFields({ [CSRF_FIELD]: v.csrf, logo_sha256: v.values.logoSha256 })}
${field({ name: "display_name", id: BRANDING_INPUTS.display_name, label: t("bo.brand.displayName"), hint: t("bo.brand.displayNameHint"), value: v.values.displayName, maxlength: 120, autocomplete: "off", error: errorOf(BRANDING_INPUTS.display_name) })}
<div class="pair">${colour("primary_color", "bo.brand.primary", v.values.primaryColor)}${colour("background_color", "bo.brand.background", v.values.backgroundColor)}${colour("text_color", "bo.brand.text", v.values.textColor)}</div>
${selectField({ name: "corner_style", id: BRANDING_INPUTS.corner_style, label: t("bo.brand.corners"), options: CORNERS.map((c) => ({ value: c, label: t(`bo.brand.corner.${c}`) })), value: v.values.cornerStyle })}
${cornerError ? html`<p class="error" id="brand-corner_style-error">${cornerError}</p>` : ""}
<fieldset class="brand-logo"><legend>${t("bo.brand.logo")}</legend>
${
  SHA256.test(v.values.logoSha256)
    ? html`<p>${t("bo.brand.logoNow")}</p><img class="brand-logo-now" src="${consoleLogoPath(v.values.logoSha256)}" alt="${t("bo.brand.logoAlt")}" id="brand-logo-now">
${checkbox({ name: "remove_logo", id: "brand-remove-logo", label: t("bo.brand.removeLogo") })}`
    : html`<p>${t("bo.brand.noLogo")}</p>`
}
<div class="field${logoError ? " field-error" : ""}"><label for="brand-logo">${t("bo.brand.newLogo")}</label>
<p class="hint" id="brand-logo-hint">${t("bo.brand.logoHint")}</p>
${logoError ? html`<p class="error" id="brand-logo-error">${logoError}</p>` : ""}
<input id="brand-logo" name="logo_png" type="file" accept="image/png" aria-describedby="brand-logo-hint${logoError ? " brand-logo-error" : ""}"${logoError ? html` aria-invalid="true"` : ""}></div>
</fieldset>
<div class="actions">${button({ label: t("bo.brand.preview"), id: "brand-preview", name: "do", value: "preview", variant: "secondary" })}${button({ label: t("bo.brand.save"), id: "brand-save", name: "do", value: "save" })}</div>
</form>`;
}

/** The Branding section of a frontend's page. */
export function brandingSection(tr: ConsoleTranslator, v: BrandingSectionView): Html {
  const t = tr.t;
  return html`<section aria-labelledby="branding-heading" id="branding">
<h2 id="branding-heading">${t("bo.brand.heading")}</h2>
<h3>${t("bo.brand.nowHeading")}</h3>
${v.stored?.displayName ? sample(tr, "brand-now", v.stored) : html`<p id="brand-none">${t("bo.brand.notBranded")}</p>`}
${
  v.preview
    ? html`<section aria-labelledby="brand-draft-heading" id="branding-preview">
<h3 id="brand-draft-heading">${t("bo.brand.draftHeading")}</h3>
<p>${t("bo.brand.draftIntro")}</p>
${sample(tr, "brand-draft", v.preview.branding)}
${contrastTable(tr, v.preview.contrasts)}
</section>`
    : ""
}
${v.canUpdate ? html`<h3>${t("bo.brand.formHeading")}</h3><p>${t("bo.brand.intro")}</p>${brandingForm(tr, v)}` : ""}
</section>`;
}
