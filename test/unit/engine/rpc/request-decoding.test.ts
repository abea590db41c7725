/**
 * Request bytes that are not a message come back as a MalformedRequest whose
 * description names the type and the decoder's cause, short and printable,
 * never the caller's bytes in bulk; a message that decodes comes back as is.
 */
import t from "tap";
import { create, toBinary } from "@bufbuild/protobuf";
import { GetTransactionRequestSchema, ProcessRequestSchema } from "../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { CONTROL_CHARACTERS } from "../../../../engine/shared/control-characters.ts";
import { decodeRequest, MalformedRequest, MAX_CAUSE_CHARS } from "../../../../engine/rpc/request-decoding.ts";
import { StartSessionRequestSchema } from "../../../../gen/cashier/engine/v1/cashier_service_pb.js";

t.test("a message that decodes is returned", async (t) => {
  const r = decodeRequest(GetTransactionRequestSchema, toBinary(GetTransactionRequestSchema, create(GetTransactionRequestSchema, { traceId: 7 })));
  t.notOk(r instanceof MalformedRequest);
  if (!(r instanceof MalformedRequest)) t.equal(r.traceId, 7);
});

t.test("truncated bytes, invalid UTF-8, a reserved wire type and a long varint are malformed, each cause named", async (t) => {
  const cases: [number[], RegExp][] = [
    [[0x0a, 0x05, 0x41], /^malformed cashier\.engine\.v1\.ProcessRequest: premature EOF$/],
    [[0x0a, 0x02, 0xff, 0xfe], /^malformed cashier\.engine\.v1\.ProcessRequest: .*utf-8/i],
    [[0x0e], /^malformed cashier\.engine\.v1\.ProcessRequest: illegal tag: field no 1 wire type 6$/],
    [[0x58, ...Array(10).fill(0xff), 0x01], /^malformed cashier\.engine\.v1\.ProcessRequest: invalid varint$/],
  ];
  for (const [bytes, want] of cases) {
    const r = decodeRequest(ProcessRequestSchema, Uint8Array.from(bytes));
    t.ok(r instanceof MalformedRequest, Buffer.from(bytes).toString("hex"));
    if (r instanceof MalformedRequest) t.match(r.description, want);
  }
});

t.test("a long or unprintable cause is cut and cleaned", async (t) => {
  const m = new MalformedRequest("x.Y", new Error(`bad\n\u0000${"z".repeat(1000)}`));
  t.notOk(CONTROL_CHARACTERS.test(m.description), "no control characters");
  t.ok(m.description.length <= "malformed x.Y: ".length + MAX_CAUSE_CHARS, `${m.description.length} characters`);
  t.match(m.description, /\.\.\.$/);
});

/** `bytes` with the first occurrence of `text` (as UTF-8) replaced by the same number of bytes that are no UTF-8. */
function corrupt(bytes: Uint8Array, text: string): Uint8Array {
  const at = Buffer.from(bytes).indexOf(Buffer.from(text, "utf8"));
  if (at < 0) throw new Error(`${text} is not in the message`);
  const out = Uint8Array.from(bytes);
  // ED A0 80: U+D800, half of a surrogate pair, as a client encoding UTF-16 code units one by one writes it.
  out.set([0xed, 0xa0, 0x80], at);
  return out;
}

t.test("text that is not UTF-8 is named by its field's path, however deep", async (t) => {
  const process = toBinary(
    ProcessRequestSchema,
    create(ProcessRequestSchema, {
      merchantId: "m-test",
      customer: { firstName: "Jane", lastName: "Doe" },
      card: { number: "4111111111111111" },
      wireSignature: { unknownMembers: { colour: "teal" } },
    }),
  );
  const cases: [Uint8Array, string][] = [
    [corrupt(process, "m-test"), "merchant_id"],
    [corrupt(process, "colour"), "wire_signature.unknown_members"],
    [corrupt(process, "teal"), "wire_signature.unknown_members"],
    [corrupt(process, "Jane"), "customer.first_name"],
    [corrupt(process, "4111111111111111"), "card.number"],
  ];
  for (const [bytes, field] of cases) {
    const r = decodeRequest(ProcessRequestSchema, bytes);
    t.ok(r instanceof MalformedRequest, field);
    if (r instanceof MalformedRequest) {
      t.equal(r.field, field);
      t.match(r.description, new RegExp(`^malformed cashier\\.engine\\.v1\\.ProcessRequest: .*utf-8.* \\(field ${field.replace(".", "\\.")}\\)$`, "i"));
    }
  }
  // A truncated message has another cause: no field is blamed.
  const truncated = decodeRequest(ProcessRequestSchema, process.subarray(0, process.length - 3));
  t.ok(truncated instanceof MalformedRequest && truncated.field === undefined, "a truncated message names no field");
  // Another message type, for the service's other callers.
  const session = toBinary(StartSessionRequestSchema, create(StartSessionRequestSchema, { frontend: "demo-usd" }));
  const r = decodeRequest(StartSessionRequestSchema, corrupt(session, "demo-usd"));
  t.equal(r instanceof MalformedRequest ? r.field : "", "frontend");
});
