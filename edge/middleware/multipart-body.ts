/**
 * Reads a small `multipart/form-data` body (RFC 7578), the one form of the Backoffice that carries a file (a
 * frontend's logo): within a hard size bound, read whole before a byte of it is parsed, its text fields into a
 * URLSearchParams (so that the CSRF check and the routes read it as any other form) and at most one file. Node's
 * own `Response.formData()` (undici) parses the same bodies, but answers every malformed one with the same "Failed
 * to parse body as FormData"; this reader is kept for its answers. Every fault comes back as data naming its cause
 * (the pages answer it as a 400 page), never thrown: no boundary, over the bound, two files, a part without a name,
 * a body that does not end. Should the named faults stop mattering, formData() on the bounded bytes can replace it.
 */
import type { Context } from "koa";
import { closeAfterAnswer, readBody } from "./body.ts";

/** The bound of a Backoffice upload: a logo of at most 64 KiB and the form around it, with room to spare. */
export const MAX_MULTIPART_BYTES = 128 * 1024;

/** At most this many parts: the branding form has ten fields; a body of thousands of empty parts is refused. */
const MAX_PARTS = 64;
/** At most this many bytes of headers in one part. */
const MAX_PART_HEADERS = 1024;

/** The one file of a form: its input's name, the name the browser gave it, its declared type and its bytes. */
export interface MultipartFile {
  field: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

export type MultipartParse = { ok: true; form: URLSearchParams; file?: MultipartFile } | { ok: false; text: string };
export type MultipartResult = { ok: true; form: URLSearchParams; file?: MultipartFile } | { ok: false; http: 400 | 408 | 415; text: string };

/** The boundary of a `multipart/form-data` content type (RFC 2046: 1 to 70 characters, quoted or not); undefined: none. */
export function boundaryOf(contentType: string): string | undefined {
  const [type, ...params] = contentType.split(";");
  if (type.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const p of params) {
    const m = /^\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s";]{1,70}))\s*$/i.exec(p);
    if (m) return m[1] ?? m[2];
  }
  return undefined;
}

/** A parameter of a Content-Disposition header (name="logo"); browsers write a quote in a name as %22. */
function param(disposition: string, key: string): string | undefined {
  const m = new RegExp(`;\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^\\s;]+))`, "i").exec(disposition);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** One part's headers, by lower-case name. */
function headersOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) out.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return out;
}

/**
 * The parts of `body` split at `boundary`: its text fields and its one file. A file input left empty (a part with
 * filename="" and no bytes, as browsers send it) is no file.
 */
export function parseMultipart(body: Buffer, boundary: string): MultipartParse {
  const delimiter = Buffer.from(`--${boundary}`);
  const form = new URLSearchParams();
  let file: MultipartFile | undefined;
  let at = body.indexOf(delimiter);
  if (at < 0) return { ok: false, text: "The form's body holds no part: its boundary never appears." };
  for (let parts = 0; ; parts++) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString("latin1") === "--") return { ok: true, form, ...(file ? { file } : {}) };
    if (parts >= MAX_PARTS) return { ok: false, text: `The form has more than ${MAX_PARTS} parts.` };
    if (body.subarray(at, at + 2).toString("latin1") !== "\r\n") return { ok: false, text: "The form's boundary line is not followed by a line break." };
    const start = at + 2;
    const headEnd = body.indexOf("\r\n\r\n", start);
    if (headEnd < 0 || headEnd - start > MAX_PART_HEADERS) return { ok: false, text: "A part of the form has no end to its headers." };
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd + 4);
    if (next < 0) return { ok: false, text: "The form ends before its closing boundary." };
    const headers = headersOf(body.subarray(start, headEnd).toString("utf8"));
    const disposition = headers.get("content-disposition") ?? "";
    const name = param(disposition, "name");
    if (!/^form-data\b/i.test(disposition) || !name) return { ok: false, text: "A part of the form has no form-data name." };
    const bytes = body.subarray(headEnd + 4, next);
    const filename = param(disposition, "filename");
    if (filename === undefined) form.append(name, bytes.toString("utf8"));
    else if (filename !== "" || bytes.length > 0) {
      if (file) return { ok: false, text: `The form carries two files (${file.field} and ${name}); send one.` };
      file = { field: name, filename, type: headers.get("content-type") ?? "application/octet-stream", bytes: Buffer.from(bytes) };
    }
    at = next + 2;
  }
}

/**
 * The request's multipart form, at most `maxBytes` (more is refused before anything is parsed, naming the bound);
 * another content type is 415 as the url-encoded reader answers it, a body too slow 408 with the connection closed.
 */
export async function readMultipart(ctx: Context, maxBytes = MAX_MULTIPART_BYTES): Promise<MultipartResult> {
  const contentType = ctx.get("content-type") || "";
  const encoding = (ctx.get("content-encoding") || "identity").trim().toLowerCase();
  if (contentType.split(";")[0].trim().toLowerCase() !== "multipart/form-data" || encoding !== "identity") {
    ctx.req.resume();
    return { ok: false, http: 415, text: "The form must be sent as multipart/form-data, uncompressed." };
  }
  const boundary = boundaryOf(contentType);
  if (!boundary) {
    ctx.req.resume();
    return { ok: false, http: 400, text: "The form's content type names no boundary." };
  }
  const tooLarge = { ok: false, http: 400, text: `The form is over ${Math.floor(maxBytes / 1024)} KiB: choose a smaller logo.` } as const;
  if (Number(ctx.get("content-length") || "0") > maxBytes) {
    ctx.req.resume();
    return tooLarge;
  }
  const read = await readBody(ctx.req, maxBytes);
  if (!read.ok && read.why === "tooLarge") return tooLarge;
  if (!read.ok) {
    closeAfterAnswer(ctx);
    return { ok: false, http: 408, text: "The form did not arrive in time. Go back and send it again." };
  }
  const parsed = parseMultipart(read.bytes, boundary);
  return parsed.ok ? parsed : { ok: false, http: 400, text: parsed.text };
}
