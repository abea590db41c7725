/**
 * WCAG 2.2 contrast as the branding settings use it: ratios of known pairs
 * (WebAIM's checker gives the same to two decimals), the refusal's rounding,
 * and the primary button's text colour the engine chooses (white, else the
 * text colour, else none).
 */
import t from "tap";
import { buttonTextOn, contrastRatio, ratioText, relativeLuminance } from "../../../../engine/shared/brand-contrast.ts";

t.test("ratios of known pairs", async (t) => {
  const table: [string, string, string][] = [
    ["#000000", "#ffffff", "21.00:1"],
    ["#ffffff", "#ffffff", "1.00:1"],
    ["#777777", "#ffffff", "4.47:1"],
    ["#767676", "#ffffff", "4.54:1"],
    ["#1d4ed8", "#ffffff", "6.70:1"],
    ["#ff0000", "#ffffff", "3.99:1"],
    ["#1d2330", "#f4f5f7", "14.41:1"],
  ];
  for (const [a, b, want] of table) {
    t.equal(ratioText(contrastRatio(a, b)), want, `${a} on ${b}`);
    t.equal(contrastRatio(a, b), contrastRatio(b, a), `${a} and ${b} either way`);
  }
});

t.test("a ratio is rounded down, so a refusal never reads as the bound", async (t) => {
  t.equal(ratioText(4.4999), "4.49:1");
  t.equal(ratioText(4.5), "4.50:1");
});

t.test("luminance refuses what is not #rrggbb", async (t) => {
  t.equal(relativeLuminance("#ffffff"), 1);
  t.equal(relativeLuminance("#000000"), 0);
  for (const bad of ["#fff", "ffffff", "#FFFFFF", "#gggggg", "#ffffff;}"]) t.throws(() => relativeLuminance(bad), `${bad}`);
});

t.test("the button text colour: white first, else the text colour, else none", async (t) => {
  const table: [primary: string, text: string, want: string | null][] = [
    ["#1d4ed8", "#1d2330", "#ffffff"], // dark blue: white reads (6.70:1)
    ["#ffd60a", "#1d2330", "#1d2330"], // yellow: white 1.41:1, dark text reads (11.13:1)
    ["#ff0000", "#1d2330", null], // red: white 3.99:1, dark text 3.93:1, neither
    ["#777777", "#000000", "#000000"], // grey: white 4.47:1 falls short, black reads (4.68:1)
  ];
  for (const [primary, text, want] of table) t.equal(buttonTextOn(primary, text), want, `${primary} with text ${text}`);
});
