/** DomainError -> gRPC status with an ErrorDetail (reason and every offending field). */
import { create } from "@bufbuild/protobuf";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { ErrorDetailSchema, ErrorReason, FieldViolationSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { REASONS, type DomainError, type Reason } from "../domain/errors.ts";
import { RpcError } from "./grpc-adapter.ts";

export function reasonToProto(reason: Reason): ErrorReason {
  return ErrorReason[reason];
}

export function toRpcError(e: DomainError): RpcError {
  const detail = create(ErrorDetailSchema, {
    reason: reasonToProto(e.reason),
    violations: e.violations.map((v) => create(FieldViolationSchema, v)),
  });
  return new RpcError(GrpcStatus[REASONS[e.reason].grpc], e.message, [{ schema: ErrorDetailSchema, message: detail }]);
}

/** A bad argument of an operator call, named. */
export function invalidArgument(field: string, description: string): RpcError {
  return toRpcError({ reason: "INVALID_FIELDS", message: `${field}: ${description}`, violations: [{ field, description }] });
}
