/**
 * Reads a JSON object body: Content-Type application/json (415), at most
 * 64 KiB (413, counted while reading, whatever Content-Length says), parsable
 * (400) and an object (400). Failures are thrown as WireError for errors.ts.
 */
import type { Context } from "koa";
import { WireError } from "./errors.ts";

export const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const type = (ctx.get("content-type") || "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    throw new WireError("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be application/json, got ${type || "none"}`);
  }
  const encoding = (ctx.get("content-encoding") || "identity").trim().toLowerCase();
  if (encoding !== "identity") throw new WireError("UNSUPPORTED_MEDIA_TYPE", `Content-Encoding ${encoding} is not supported; send the JSON uncompressed`);
  const declared = Number(ctx.get("content-length") || "0");
  if (declared > MAX_BODY_BYTES) throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_BODY_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      ctx.req.resume();
      throw new WireError("PAYLOAD_TOO_LARGE", `body is over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new WireError("MALFORMED_BODY", "body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new WireError("MALFORMED_BODY", "body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
