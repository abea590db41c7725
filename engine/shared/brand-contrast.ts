/**
 * WCAG 2.2 contrast between two sRGB colours written #rrggbb, for a frontend's
 * branding (docs/cashier.md, Branding): the engine refuses a pair below AA
 * (4.5:1 for body text) when it is saved, and picks the primary button's text
 * colour itself, so the hosted Cashier never shows an unreadable brand.
 * Pure: shared so that the engine's checks and their tests use one formula.
 */

/** A colour as the branding settings write it: `#` and six lower-case hex digits. */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/;

/** WCAG AA for normal text. */
export const AA_NORMAL_TEXT = 4.5;

/** The white a primary button's text may take. */
export const WHITE = "#ffffff";

/** WCAG's relative luminance of `#rrggbb` (0 black .. 1 white). */
export function relativeLuminance(hex: string): number {
  if (!HEX_COLOUR.test(hex)) throw new Error(`not a #rrggbb colour: ${hex.slice(0, 20)}`);
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two colours, 1 (none) .. 21 (black on white), whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A ratio as a refusal writes it, rounded down to two decimals: 4.4999 reads "4.49:1", never "4.50:1" beside
 * "needs at least 4.5:1".
 */
export function ratioText(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/**
 * The text colour of a button filled with `primary`: white when it reaches AA on it, else the page's text colour
 * when that does, else none (the pair is refused). White first: it is what a filled button most often carries.
 */
export function buttonTextOn(primary: string, text: string): string | null {
  if (contrastRatio(WHITE, primary) >= AA_NORMAL_TEXT) return WHITE;
  if (contrastRatio(text, primary) >= AA_NORMAL_TEXT) return text;
  return null;
}
