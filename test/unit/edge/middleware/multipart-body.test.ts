/**
 * The Backoffice's multipart reader (edge/middleware/multipart-body.ts): a browser's body (fields, one file, an
 * empty file input) read as a form and a file; each fault named as the page will say it: no boundary, over the
 * bound, two files, a part without a name, a body cut before its end, another content type.
 */
import { PassThrough } from "node:stream";
import t from "tap";
import type { Context } from "koa";
import { boundaryOf, MAX_MULTIPART_BYTES, parseMultipart, readMultipart } from "../../../../edge/middleware/multipart-body.ts";

const B = "----formdata-test-7MA4YWxkTrZu0gW";

type Part = { name: string; value: string | Buffer; filename?: string; type?: string };

/** A body as Chromium writes it. */
function body(parts: Part[], boundary = B): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename === undefined ? "" : `; filename="${p.filename}"`;
    const type = p.filename === undefined ? "" : `\r\nContent-Type: ${p.type ?? "application/octet-stream"}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`),
      Buffer.from(p.value),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** A request of `bytes` with `headers`, as Koa hands it to a route. */
function request(bytes: Buffer, headers: Record<string, string>): { ctx: Context; answer: Record<string, string> } {
  const req = new PassThrough();
  req.end(bytes);
  const answer: Record<string, string> = {};
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ctx = { req, get: (h: string) => lower[h.toLowerCase()] ?? "", set: (k: string, v: string) => void (answer[k] = v) } as unknown as Context;
  return { ctx, answer };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);

t.test("fields and one file, bytes as sent (a CR LF and dashes inside the file stay)", async (t) => {
  const sent = body([
    { name: "csrf", value: "tok" },
    { name: "display_name", value: "Café Étoile" },
    { name: "logo", value: PNG, filename: "logo.png", type: "image/png" },
    { name: "corner_style", value: "pill" },
  ]);
  const r = parseMultipart(sent, B);
  if (!r.ok) return t.fail(r.text);
  t.same(
    [...r.form.entries()],
    [
      ["csrf", "tok"],
      ["display_name", "Café Étoile"],
      ["corner_style", "pill"],
    ],
  );
  t.same(r.file && { ...r.file, bytes: [...r.file.bytes] }, { field: "logo", filename: "logo.png", type: "image/png", bytes: [...PNG] });
});

t.test('an empty file input (filename "", no bytes) is no file; a field may be empty', async (t) => {
  const r = parseMultipart(
    body([
      { name: "logo", value: "", filename: "" },
      { name: "remove_logo", value: "" },
    ]),
    B,
  );
  if (!r.ok) return t.fail(r.text);
  t.equal(r.file, undefined);
  t.equal(r.form.get("remove_logo"), "");
});

t.test("the boundary, quoted or not, of multipart/form-data only", async (t) => {
  t.equal(boundaryOf(`multipart/form-data; boundary=${B}`), B);
  t.equal(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b:c"'), "a b:c");
  t.equal(boundaryOf("multipart/form-data"), undefined);
  t.equal(boundaryOf("multipart/form-data; boundary="), undefined);
  t.equal(boundaryOf(`multipart/form-data; boundary=${"x".repeat(71)}`), undefined, "over 70 characters");
  t.equal(boundaryOf(`multipart/mixed; boundary=${B}`), undefined);
});

t.test("each malformed body is named", async (t) => {
  const refused = (bytes: Buffer) => {
    const r = parseMultipart(bytes, B);
    return r.ok ? "accepted" : r.text;
  };
  t.match(
    refused(
      body([
        { name: "a", value: PNG, filename: "a.png" },
        { name: "b", value: PNG, filename: "b.png" },
      ]),
    ),
    "The form carries two files (a and b); send one.",
  );
  t.match(refused(Buffer.from("no parts at all")), "its boundary never appears");
  const whole = body([{ name: "a", value: "1" }]);
  t.match(refused(whole.subarray(0, whole.length - 12)), "The form ends before its closing boundary.");
  t.match(refused(Buffer.from(`--${B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${B}--`)), "no form-data name");
  t.match(refused(Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"`)), "no end to its headers");
  t.match(refused(Buffer.from(`--${B}xx\r\n`)), "not followed by a line break");
  const many = body(Array.from({ length: 65 }, (_, i) => ({ name: `f${i}`, value: "" })));
  t.match(refused(many), "more than 64 parts");
});

t.test("readMultipart: a form read whole; each fault an answer, never a throw", async (t) => {
  const type = `multipart/form-data; boundary=${B}`;
  const ok = await readMultipart(request(body([{ name: "csrf", value: "tok" }]), { "content-type": type }).ctx);
  t.same(ok.ok && ok.form.get("csrf"), "tok");

  const noBoundary = await readMultipart(request(body([]), { "content-type": "multipart/form-data" }).ctx);
  t.same(noBoundary, { ok: false, http: 400, text: "The form's content type names no boundary." });

  const big = body([{ name: "logo", value: Buffer.alloc(MAX_MULTIPART_BYTES), filename: "big.png" }]);
  const declared = await readMultipart(request(big, { "content-type": type, "content-length": String(big.length) }).ctx);
  t.same(declared, { ok: false, http: 400, text: "The form is over 128 KiB: choose a smaller logo." }, "refused by its Content-Length");
  const chunked = await readMultipart(request(big, { "content-type": type }).ctx);
  t.same(chunked, declared, "and by what arrives when no length is declared");

  const two = body([
    { name: "a", value: PNG, filename: "a.png" },
    { name: "b", value: PNG, filename: "b.png" },
  ]);
  const twoFiles = await readMultipart(request(two, { "content-type": type }).ctx);
  t.same(twoFiles, { ok: false, http: 400, text: "The form carries two files (a and b); send one." });

  const urlencoded = await readMultipart(request(Buffer.from("a=1"), { "content-type": "application/x-www-form-urlencoded" }).ctx);
  t.same(urlencoded, { ok: false, http: 415, text: "The form must be sent as multipart/form-data, uncompressed." });
  const gzip = await readMultipart(request(body([]), { "content-type": type, "content-encoding": "gzip" }).ctx);
  t.equal(gzip.ok ? 200 : gzip.http, 415);
});
