/**
 * A platform's reply is kept up to 64 KiB and reading stops there (issue 31):
 * the bound itself, on chunks however they arrive, and how a reply cut there
 * is judged: on what was read, acknowledged only when that already parses
 * (JSON is self-delimiting: a cut reply parses only when the platform's
 * object ended within the bound), otherwise unparsable like any other reply.
 */
import t from "tap";
import { BoundedBody, MAX_REPLY_BYTES } from "../../../../../engine/payments/callbacks/reply-bound.ts";
import { readAck } from "../../../../../engine/payments/callbacks/reply-ack.ts";
import { readValidationReply } from "../../../../../engine/payments/callbacks/validation-codec.ts";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import type { SendResult } from "../../../../../engine/payments/ports/callbacks.ts";

t.equal(MAX_REPLY_BYTES, 65536, "64 KiB, as docs/operations.md and docs/integration.md say");

t.test("chunks up to the bound are kept whole; reading goes on", async (t) => {
  const b = new BoundedBody(10);
  t.equal(b.push(Buffer.from("abcd")), true);
  t.equal(b.push(Buffer.from("efghij")), true, "exactly the bound is not past it");
  t.equal(b.cut, false);
  t.equal(b.text(), "abcdefghij");
});

t.test("the chunk that goes past the bound is cut there and reading stops", async (t) => {
  const b = new BoundedBody(10);
  t.equal(b.push(Buffer.from("abcdefgh")), true);
  t.equal(b.push(Buffer.from("ijklmnop")), false);
  t.equal(b.cut, true);
  t.equal(b.text(), "abcdefghij");
});

t.test("one chunk far over the bound keeps the bound's worth only", async (t) => {
  const b = new BoundedBody();
  t.equal(b.push(Buffer.alloc(10 * 1024 * 1024, 0x20)), false);
  t.equal(Buffer.byteLength(b.text()), MAX_REPLY_BYTES);
});

t.test("a character cut at the bound becomes U+FFFD, never a throw", async (t) => {
  const b = new BoundedBody(2);
  t.equal(b.push(Buffer.from("aé")), false, "é is two bytes: 3 in all");
  t.equal(b.text(), "a\uFFFD");
});

const cut = (body: string, httpStatus = 200): SendResult => ({ httpStatus, body, error: "", refusedAddress: false, cut: true, durationMs: 30 });

t.test("a cut reply whose object ended within the bound acknowledges (padding after it is never read)", async (t) => {
  const padded = `{"status":0,"Status":0}${" ".repeat(MAX_REPLY_BYTES - 23)}`;
  t.same(readAck("notification", cut(padded)), { ok: true, status: 0 });
  t.same(readAck("record_failed_deposit", cut(padded)), { ok: true, status: 0 });
});

t.test("a cut reply that does not parse is unparsable, saying it was cut", async (t) => {
  const big = `{"status":0,"description":"${"x".repeat(MAX_REPLY_BYTES)}`;
  for (const kind of ["notification", "update_payout", "record_failed_deposit"] as const) {
    const ack = readAck(kind, cut(big.slice(0, MAX_REPLY_BYTES)));
    t.equal(ack.ok, false, kind);
    if (!ack.ok) t.equal(ack.error, "HTTP 200: the reply is over 64 KiB (read no further) and its first 64 KiB are not a JSON object", kind);
  }
  const v = readValidationReply(cut(big.slice(0, MAX_REPLY_BYTES)), hmacKey("secret"));
  t.same(v, { usable: false, error: "the reply is over 64 KiB (read no further) and its first 64 KiB are not a JSON object" });
});

t.test("an uncut reply reads as before", async (t) => {
  const ack = readAck("notification", { httpStatus: 200, body: "OK", error: "", refusedAddress: false, durationMs: 3 });
  t.same(ack, { ok: false, error: "HTTP 200: the reply is not a JSON object" });
});
