/**
 * The published catalogues agree: the reason table the engine and edge use,
 * the proto's ErrorReason and ErrorCode enums, and the integration guide's tables (docs/integration.md).
 */
import { readFileSync } from "node:fs";
import t from "tap";
import { ErrorCode, ErrorReason } from "../../../gen/cashier/engine/v1/errors_pb.js";
import { ERROR_CODES, REASONS } from "../../../engine/shared/errors.ts";

const readme = readFileSync(new URL("../../../docs/integration.md", import.meta.url), "utf8");
const proto = readFileSync(new URL("../../../proto/cashier/engine/v1/errors.proto", import.meta.url), "utf8");

t.test("every reason is in the proto with its wire status and HTTP status, and in the README", async (t) => {
  for (const [name, info] of Object.entries(REASONS)) {
    t.ok(name in ErrorReason, `${name} is an ErrorReason`);
    // The comment's first line names the status and HTTP status; it may go on over more lines before the value.
    const comment = new RegExp(`\\[${info.status}\\] HTTP ${info.http}[^\\n]*\\n(\\s*//[^\\n]*\\n)*\\s*ERROR_REASON_${name} =`);
    t.match(proto, comment, `${name}: proto comment says [${info.status}] HTTP ${info.http}`);
    const row = new RegExp(`\\| ${info.status} \\| ${info.http} \\| \`${name}\` \\| \`${info.grpc.toLowerCase()}\` \\|`);
    t.match(readme, row, `${name}: README row, with its gRPC code`);
  }
  const protoNames = Object.keys(ErrorReason).filter((k) => Number.isNaN(Number(k)) && k !== "UNSPECIFIED");
  t.same(protoNames.sort(), Object.keys(REASONS).sort(), "no reason only in the proto");
  const statuses = Object.values(REASONS).map((r) => r.status);
  t.equal(new Set(statuses).size, statuses.length, "wire statuses are distinct");
});

t.test("every error_code is in the proto and the README", async (t) => {
  for (const [name, code] of Object.entries(ERROR_CODES)) {
    t.equal((ErrorCode as unknown as Record<string, number>)[name], code, `${name} = ${code} in the proto`);
    t.match(readme, new RegExp(`\\| ${code} \\|`), `${code} in the README`);
  }
});
