/**
 * Reads a JSON object body: Content-Type application/json, in UTF-8 if it
 * names a charset (415), at most 64 KiB (413, counted while reading, whatever
 * Content-Length says), all of it within 5 s (408, the connection closed:
 * body.ts), valid UTF-8 (400: JSON is UTF-8, and a byte that is
 * not must not be read as U+FFFD into a signed member), parsable (400), an
 * object (400) and naming each member once (400: engine/shared/duplicate-member.ts). Failures are thrown as WireError for errors.ts.
 */
import type { Context } from "koa";
import { duplicateMember } from "../../engine/shared/duplicate-member.ts";
import { closeAfterAnswer, readBody } from "./body.ts";
import { WireError } from "./errors.ts";
import { BODY_TIMEOUT_MS } from "./time-limits.ts";

export const MAX_BODY_BYTES = 64 * 1024;

// ignoreBOM keeps a byte order mark in the text, so that JSON.parse refuses it as before.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Charsets whose text is UTF-8: none named, UTF-8 itself, and US-ASCII, its first 128 code points (a body with a
 * byte past them is refused as no UTF-8 below, or read as the UTF-8 it is). Another charset is refused rather than
 * read as UTF-8: a Latin-1 body could read as other text than its signer meant.
 */
const UTF8_CHARSETS = new Set(["", "utf-8", "utf8", "us-ascii", "ascii"]);

/** The charset parameter of a Content-Type, lower case; "" when none is named. */
function charsetOf(contentType: string): string {
  for (const param of contentType.split(";").slice(1)) {
    const [name, value = ""] = param.split("=");
    if (name.trim().toLowerCase() === "charset")
      return value
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .toLowerCase();
  }
  return "";
}

export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const contentType = ctx.get("content-type") || "";
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    throw new WireError("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be application/json, got ${type || "none"}`);
  }
  const charset = charsetOf(contentType);
  if (!UTF8_CHARSETS.has(charset)) {
    throw new WireError("UNSUPPORTED_MEDIA_TYPE", `charset must be utf-8 (JSON is UTF-8), got ${charset.slice(0, 40).replace(/[^a-z0-9._-]/g, "?")}`);
  }
  const encoding = (ctx.get("content-encoding") || "identity").trim().toLowerCase();
  if (encoding !== "identity") throw new WireError("UNSUPPORTED_MEDIA_TYPE", `Content-Encoding ${encoding} is not supported; send the JSON uncompressed`);
  const declared = Number(ctx.get("content-length") || "0");
  if (declared > MAX_BODY_BYTES) throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_BODY_BYTES} bytes`);
  const read = await readBody(ctx.req, MAX_BODY_BYTES);
  if (!read.ok && read.why === "tooLarge") throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_BODY_BYTES} bytes`);
  if (!read.ok) {
    closeAfterAnswer(ctx);
    throw new WireError("REQUEST_TIMEOUT", `the body did not arrive within ${BODY_TIMEOUT_MS / 1000} s; send it at once`);
  }
  let text: string;
  try {
    text = UTF8.decode(read.bytes);
  } catch {
    throw new WireError("MALFORMED_BODY", "body is not valid UTF-8");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WireError("MALFORMED_BODY", "body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new WireError("MALFORMED_BODY", "body must be a JSON object");
  }
  const twice = duplicateMember(text);
  if (twice !== undefined) {
    const shown = twice.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 50);
    throw new WireError("MALFORMED_BODY", `member ${shown}${shown === twice ? "" : " (renamed)"} appears more than once; send each member once`);
  }
  return parsed as Record<string, unknown>;
}
