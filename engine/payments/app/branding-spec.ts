/**
 * A frontend entry's `branding` member (merchants file, AdminService's
 * UpdateFrontend), checked wherever it comes from, each fault named by its
 * path: `merchants[0].frontends[0].branding.text_color`. A colour pair below
 * WCAG AA is refused with the ratio it has; the primary button's text colour
 * is the engine's choice (white, else the text colour), never the merchant's.
 */
import { AA_NORMAL_TEXT, buttonTextOn, contrastRatio, HEX_COLOUR, ratioText, WHITE } from "../../shared/brand-contrast.ts";
import { type Branding, CORNER_STYLES, type CornerStyle, DEFAULT_BRAND_LOOK, LOGO_SHA256, STATUS_COLOURS } from "../../shared/branding.ts";
import { checkLogo, logoBytesOf } from "./brand-logo-spec.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

export const MAX_DISPLAY_NAME = 60;
const KEYS = ["display_name", "primary_color", "background_color", "text_color", "corner_style", "logo_png", "logo_sha256"];
// Control characters and the bidirectional overrides that could make a name read as another merchant's.
const UNSAFE_TEXT = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

function colour(b: Record<string, unknown>, key: string, where: string, fallback: string): string {
  const v = b[key];
  if (v === undefined || v === null || v === "") return fallback;
  if (typeof v !== "string" || !HEX_COLOUR.test(v.toLowerCase()))
    throw new MerchantsFileError(`${where}.${key}`, "must be a colour written #rrggbb, such as #1d4ed8");
  return v.toLowerCase();
}

/** The branding at path `where` (absent or null: none, the Cashier's own look and no merchant name). */
export function parseBranding(v: unknown, where: string): Branding | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "object" || Array.isArray(v)) throw new MerchantsFileError(where, "must be an object");
  const b = v as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !KEYS.includes(k));
  if (unknown) throw new MerchantsFileError(`${where}.${unknown}`, `is not a branding setting (use ${KEYS.join(", ")})`);
  const raw = b.display_name;
  if (typeof raw !== "string" || raw.trim() === "")
    throw new MerchantsFileError(`${where}.display_name`, "is required: the merchant's name as players know it");
  const displayName = raw.trim();
  if ([...displayName].length > MAX_DISPLAY_NAME) throw new MerchantsFileError(`${where}.display_name`, `must be at most ${MAX_DISPLAY_NAME} characters`);
  if (UNSAFE_TEXT.test(displayName)) throw new MerchantsFileError(`${where}.display_name`, "must be plain text (no control or direction-override characters)");
  const d = DEFAULT_BRAND_LOOK;
  const primaryColor = colour(b, "primary_color", where, d.primaryColor);
  const backgroundColor = colour(b, "background_color", where, d.backgroundColor);
  const textColor = colour(b, "text_color", where, d.textColor);
  const corner = b.corner_style ?? d.cornerStyle;
  if (typeof corner !== "string" || !(CORNER_STYLES as readonly string[]).includes(corner))
    throw new MerchantsFileError(`${where}.corner_style`, `must be one of ${CORNER_STYLES.join(", ")}`);
  const textRatio = contrastRatio(textColor, backgroundColor);
  if (textRatio < AA_NORMAL_TEXT)
    throw new MerchantsFileError(
      `${where}.text_color`,
      `${textColor} on background_color ${backgroundColor} has a contrast of ${ratioText(textRatio)}; WCAG AA needs at least ${AA_NORMAL_TEXT}:1`,
    );
  for (const [name, status] of Object.entries(STATUS_COLOURS)) {
    const r = contrastRatio(status, backgroundColor);
    if (r < AA_NORMAL_TEXT)
      throw new MerchantsFileError(
        `${where}.background_color`,
        `${backgroundColor} leaves the Cashier's ${name === "ok" ? "approval" : "refusal"} colour ${status} at a contrast of ${ratioText(r)}; WCAG AA needs at least ${AA_NORMAL_TEXT}:1 (choose a lighter background)`,
      );
  }
  if (buttonTextOn(primaryColor, textColor) === null)
    throw new MerchantsFileError(
      `${where}.primary_color`,
      `${primaryColor} carries no readable button text: white has ${ratioText(contrastRatio(WHITE, primaryColor))} on it and text_color ${textColor} ${ratioText(contrastRatio(textColor, primaryColor))}; WCAG AA needs at least ${AA_NORMAL_TEXT}:1 for one of them`,
    );
  return { displayName, primaryColor, backgroundColor, textColor, cornerStyle: corner as CornerStyle, ...logoOf(b, where) };
}

/** The branding's logo: new bytes (logo_png, checked) win over a stored one's hash (logo_sha256); neither: none. */
function logoOf(b: Record<string, unknown>, where: string): Pick<Branding, "logoSha256" | "newLogo"> {
  const given = b.logo_png;
  if (given !== undefined && given !== null && given !== "" && !(given instanceof Uint8Array && given.length === 0)) {
    const logo = checkLogo(logoBytesOf(given, `${where}.logo_png`), `${where}.logo_png`);
    return { logoSha256: logo.sha256, newLogo: logo };
  }
  const hash = b.logo_sha256;
  if (hash === undefined || hash === null || hash === "") return {};
  if (typeof hash !== "string" || !LOGO_SHA256.test(hash))
    throw new MerchantsFileError(`${where}.logo_sha256`, "must be a stored logo's SHA-256: 64 lowercase hex digits");
  return { logoSha256: hash };
}
