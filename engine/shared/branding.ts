/**
 * How a frontend's hosted Cashier names and dresses itself (issue 33, docs/cashier.md Branding): the merchant's
 * display name in the page's title and header, three colours and a corner style applied as CSS custom
 * properties. Every stored branding has passed branding-spec.ts, so its colours meet WCAG AA as a pair.
 */
import { buttonTextOn, WHITE } from "./brand-contrast.ts";

/** The corner styles the Cashier's stylesheet knows. */
export const CORNER_STYLES = ["square", "rounded", "pill"] as const;
export type CornerStyle = (typeof CORNER_STYLES)[number];

export interface Branding {
  /** Plain text, 1 to 60 characters: the page's title and header name the merchant with it. */
  displayName: string;
  /** #rrggbb of the primary buttons' fill. */
  primaryColor: string;
  /** #rrggbb of the page's background. */
  backgroundColor: string;
  /** #rrggbb of the page's text; at least 4.5:1 on backgroundColor. */
  textColor: string;
  cornerStyle: CornerStyle;
}

/** The colours and corners a branding that names only its display name takes: the Cashier's own. */
export const DEFAULT_BRAND_LOOK: Readonly<Omit<Branding, "displayName">> = Object.freeze({
  primaryColor: "#1d2330",
  backgroundColor: "#ffffff",
  textColor: "#1d2330",
  cornerStyle: "rounded",
});

/**
 * The hosted pages' own status colours (edge/pages/kit/assets/cashier.css --ok and --bad, a unit test keeps them
 * equal): a branded background must leave an approval and a refusal readable on it, so it is checked against them.
 */
export const STATUS_COLOURS = { ok: "#1d6b3a", bad: "#8a1c1c" } as const;

/** The text colour of a stored branding's primary buttons: stored brandings passed branding-spec.ts, so one reaches AA. */
export function buttonTextOf(b: Branding): string {
  return buttonTextOn(b.primaryColor, b.textColor) ?? WHITE;
}
