/**
 * What an engine call's refusal says, as a test asserts it: its gRPC code, the
 * fields its ErrorDetail names and its message; an empty answer when the call
 * succeeded. The e2e files over gRPC each kept a copy of this.
 */
import { type Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/cashier/engine/v1/errors_pb.js";

export async function refusal(p: Promise<unknown>): Promise<{ code?: Code; fields: string[]; message: string }> {
  try {
    await p;
    return { fields: [], message: "" };
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: e.findDetails(ErrorDetailSchema).flatMap((d) => d.violations.map((v) => v.field)), message: e.rawMessage };
  }
}
