/**
 * A draft branding as the Backoffice's preview shows it (docs/backoffice.md, Branding): checked by the same parser
 * as a save (branding-spec.ts: a refusal names the field and the ratio), and each pair the check measured with its
 * contrast, so that the preview states the engine's own numbers and no rule is repeated in the edge.
 */
import { contrastRatio, ratioText } from "../../shared/brand-contrast.ts";
import { type Branding, buttonTextOf, STATUS_COLOURS } from "../../shared/branding.ts";
import { parseBranding } from "./branding-spec.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

/** One measured pair: what it is, its colours and its ratio as a refusal writes it. */
export interface BrandingContrastView {
  pair: "text" | "button_text" | "approval" | "refusal";
  foreground: string;
  background: string;
  ratio: string;
}

/** The draft `raw` (the merchants file's snake_case branding) at path `where`, checked, with its contrasts. */
export function previewBranding(raw: unknown, where: string): { branding: Branding; contrasts: BrandingContrastView[] } {
  const branding = parseBranding(raw, where);
  if (!branding) throw new MerchantsFileError(where, "is required: the draft to preview");
  const b = branding;
  const pairs: [BrandingContrastView["pair"], string, string][] = [
    ["text", b.textColor, b.backgroundColor],
    ["button_text", buttonTextOf(b), b.primaryColor],
    ["approval", STATUS_COLOURS.ok, b.backgroundColor],
    ["refusal", STATUS_COLOURS.bad, b.backgroundColor],
  ];
  return {
    branding,
    contrasts: pairs.map(([pair, foreground, background]) => ({ pair, foreground, background, ratio: ratioText(contrastRatio(foreground, background)) })),
  };
}
