/**
 * A gRPC client that sends bytes as they are: no schema on our side, so a
 * test can hand the engine what no generated client would ever encode. The
 * answer's ErrorDetail reason and fields are read off grpc-status-details-bin
 * by hand.
 */
import * as grpc from "@grpc/grpc-js";
import { fromBinary } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { ErrorDetailSchema, type ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";

export interface RawAnswer {
  code: grpc.status;
  details: string;
  /** The ErrorDetail's reason, when the status carries one. */
  reason: ErrorReason | undefined;
  /** The ErrorDetail's violated fields. */
  fields: string[];
}

export interface RawGrpc {
  /** One unary call of `path` (/package.Service/Method) with `bytes` as the request message. */
  call(path: string, bytes: Uint8Array): Promise<RawAnswer>;
  close(): void;
}

const identity = (b: Buffer) => b;

/** google.rpc.Status (field 3: repeated Any) -> its cashier ErrorDetail's reason and fields. */
function detailOf(metadata: grpc.Metadata | undefined): { reason: ErrorReason | undefined; fields: string[] } {
  const none = { reason: undefined, fields: [] };
  const [bin] = metadata?.get("grpc-status-details-bin") ?? [];
  if (!(bin instanceof Buffer)) return none;
  const reader = new BinaryReader(bin);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no !== 3 || wireType !== WireType.LengthDelimited) {
      reader.skip(wireType);
      continue;
    }
    const any = fromBinary(AnySchema, reader.bytes());
    if (any.typeUrl.endsWith("/cashier.engine.v1.ErrorDetail")) {
      const detail = fromBinary(ErrorDetailSchema, any.value);
      return { reason: detail.reason, fields: detail.violations.map((v) => v.field) };
    }
  }
  return none;
}

export function rawGrpc(engineUrl: string, token: string): RawGrpc {
  const client = new grpc.Client(new URL(engineUrl).host, grpc.credentials.createInsecure());
  return {
    call(path, bytes) {
      const metadata = new grpc.Metadata();
      metadata.set("authorization", `Bearer ${token}`);
      return new Promise((resolve) => {
        client.makeUnaryRequest(path, identity, identity, Buffer.from(bytes), metadata, { deadline: Date.now() + 15_000 }, (err) => {
          resolve(
            err ? { code: err.code, details: err.details, ...detailOf(err.metadata) } : { code: grpc.status.OK, details: "", reason: undefined, fields: [] },
          );
        });
      });
    },
    close: () => client.close(),
  };
}
