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
  /** Lowercase hex SHA-256 of the frontend's PNG logo (table brand_logo, 032); absent: no logo. */
  logoSha256?: string;
  /**
   * A logo just given (merchants file, AdminService) and checked, whose hash is logoSha256: the store writes it to
   * brand_logo in the same transaction as the frontend and keeps only the hash in the branding. Never read back.
   */
  newLogo?: BrandLogo;
}

/** A checked logo (engine/payments/app/brand-logo-spec.ts): its bytes, their SHA-256 (its name and address), its size. */
export interface BrandLogo {
  sha256: string;
  png: Uint8Array;
  width: number;
  height: number;
}

/** A logo's name as stored and served: 64 lowercase hex digits. */
export const LOGO_SHA256 = /^[0-9a-f]{64}$/;

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

/**
 * A branding names by logo_sha256 a logo the engine does not hold: thrown by the merchants store inside its
 * transaction (nothing is written), answered by AdminService as INVALID_ARGUMENT naming `field`'s logo_sha256.
 */
export class UnknownLogoError extends Error {
  readonly frontend: string;
  constructor(frontend: string) {
    super(`frontend ${frontend}: branding.logo_sha256 names no stored logo (give logo_png instead)`);
    this.frontend = frontend;
  }
}
