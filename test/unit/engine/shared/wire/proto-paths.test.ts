/**
 * The gRPC callers' names for the domain's Process fields: every domain field
 * has a path, and every path is a scalar field of ProcessRequest, so a direct
 * caller can always find the field an error names.
 */
import t from "tap";
import type { DescMessage } from "@bufbuild/protobuf";
import { ProcessRequestSchema } from "../../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { PROCESS_FIELDS } from "../../../../../engine/shared/wire/process-fields.ts";
import { PROTO_PATHS } from "../../../../../engine/shared/wire/proto-paths.ts";

/** The field a dotted path of proto names leads to, or undefined. */
function resolve(message: DescMessage, path: string): string | undefined {
  const [head, ...rest] = path.split(".");
  const field = message.fields.find((f) => f.name === head);
  if (!field) return undefined;
  if (rest.length === 0) return field.fieldKind;
  return field.fieldKind === "message" ? resolve(field.message, rest.join(".")) : undefined;
}

t.test("every domain field names a scalar or enum field of ProcessRequest", async (t) => {
  for (const f of PROCESS_FIELDS) {
    const kind = resolve(ProcessRequestSchema, PROTO_PATHS[f]);
    t.ok(kind === "scalar" || kind === "enum", `${f} -> ${PROTO_PATHS[f]} (${kind})`);
  }
  t.equal(new Set(Object.values(PROTO_PATHS)).size, PROCESS_FIELDS.length, "no two fields share a path");
});
