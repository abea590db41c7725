/**
 * Request bytes that are not a message come back as a MalformedRequest whose
 * description names the type and the decoder's cause, short and printable,
 * never the caller's bytes in bulk; a message that decodes comes back as is.
 */
import t from "tap";
import { create, toBinary } from "@bufbuild/protobuf";
import { GetTransactionRequestSchema, ProcessRequestSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { CONTROL_CHARACTERS } from "../../../engine/domain/validate-process.ts";
import { decodeRequest, MalformedRequest, MAX_CAUSE_CHARS } from "../../../engine/rpc/request-decoding.ts";

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
