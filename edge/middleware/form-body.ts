/**
 * Reads a small `application/x-www-form-urlencoded` body (the hosted pages'
 * forms): of that type (415), within its size (413) and within 5 s (408, the
 * connection closed: body.ts). Failures come back as data, not thrown,
 * because the pages answer them with HTML rather than the JSON wire of errors.ts.
 */
import type { Context } from "koa";
import { closeAfterAnswer, readBody } from "./body.ts";

export const MAX_FORM_BYTES = 2 * 1024;

export type FormResult = { ok: true; form: URLSearchParams } | { ok: false; http: 408 | 413 | 415; text: string };

export async function readForm(ctx: Context): Promise<FormResult> {
  return readFormUpTo(ctx, MAX_FORM_BYTES);
}

/** readForm with another size bound (the Backoffice's forms carry WebAuthn replies and bulk selections). */
export async function readFormUpTo(ctx: Context, maxBytes: number): Promise<FormResult> {
  const type = (ctx.get("content-type") || "").split(";")[0].trim().toLowerCase();
  const encoding = (ctx.get("content-encoding") || "identity").trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded" || encoding !== "identity") {
    ctx.req.resume();
    return { ok: false, http: 415, text: "The form must be sent as application/x-www-form-urlencoded, uncompressed." };
  }
  const tooLarge = { ok: false, http: 413, text: `The form is over ${maxBytes} bytes.` } as const;
  if (Number(ctx.get("content-length") || "0") > maxBytes) {
    ctx.req.resume();
    return tooLarge;
  }
  const read = await readBody(ctx.req, maxBytes);
  if (read.ok) return { ok: true, form: new URLSearchParams(read.bytes.toString("utf8")) };
  if (read.why === "tooLarge") return tooLarge;
  closeAfterAnswer(ctx);
  return { ok: false, http: 408, text: "The form did not arrive in time. Go back and send it again." };
}
