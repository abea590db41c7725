/**
 * A branded frontend's look on its pages (docs/cashier.md, Branding): the
 * engine's checked colours and corners as CSS custom properties over the
 * kit's stylesheet, in a <style> under the response's nonce (the strict CSP's
 * style-src already allows it, so no inline style attribute and no extra
 * request), and the merchant's display name for the title and header. The
 * edge decides nothing about contrast: it renders what the engine chose, and
 * only re-reads each value's shape, so that no stored text can leave the CSS
 * declaration it is put in.
 */
import type { CashierBranding } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";

/** What the layout shows of a brand: the name and the custom properties. */
export interface PageBrand {
  name: string;
  css: string;
  /** The logo's hashed address (routes/logo.ts); absent: the name alone. */
  logo?: string;
}

const HEX = /^#[0-9a-f]{6}$/;

/** A logo's address on the hosted pages (routes/logo.ts serves it): its content's SHA-256, so cached for good. */
export function logoPath(sha256: string): string {
  return `/cashier/logo/${sha256}.png`;
}
/** Each corner style as the radius of the page's card and of its buttons. */
const RADII: Record<string, [string, string]> = { square: ["0", "0"], rounded: ["8px", "6px"], pill: ["16px", "999px"] };

/** The brand of a session's frontend; none when it has none, or when a value is not the shape the engine writes. */
export function pageBrand(b: CashierBranding | undefined): PageBrand | undefined {
  if (!b || b.displayName === "") return undefined;
  const colours = [b.primaryColor, b.backgroundColor, b.textColor, b.buttonTextColor];
  const radii = RADII[b.cornerStyle];
  if (!colours.every((c) => HEX.test(c)) || !radii) return undefined;
  // Text and links take the text colour (it meets AA on the background); the buttons the primary and its chosen text.
  const css =
    `:root{--ink:${b.textColor};--muted:${b.textColor};--accent:${b.textColor};--paper:${b.backgroundColor};` +
    `--ground:${b.backgroundColor};--primary:${b.primaryColor};--on-primary:${b.buttonTextColor};` +
    `--radius:${radii[0]};--button-radius:${radii[1]}}`;
  // The hash is re-read as 64 hex digits, so that it stays one path segment of the edge's own origin.
  return { name: b.displayName, css, ...(/^[0-9a-f]{64}$/.test(b.logoSha256) ? { logo: logoPath(b.logoSha256) } : {}) };
}
