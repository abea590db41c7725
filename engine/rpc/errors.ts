/** DomainError -> gRPC status with an ErrorDetail (reason and every offending field). */
import { CONTROL_CHARACTERS } from "../shared/control-characters.ts";
import { create } from "@bufbuild/protobuf";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { ErrorDetailSchema, ErrorReason, FieldViolationSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { DATABASE_UNAVAILABLE, REASONS, domainError, type DomainError, type Reason } from "../shared/errors.ts";
import { causes } from "../shared/runtime/error-causes.ts";
import { RpcError } from "./grpc-adapter.ts";

export function reasonToProto(reason: Reason): ErrorReason {
  return ErrorReason[reason];
}

/** The refusal's ErrorDetail comes first; `more` are further details (a Process refusal's SignedReply). */
export function toRpcError(e: DomainError, more: RpcError["details"] = []): RpcError {
  const detail = create(ErrorDetailSchema, {
    reason: reasonToProto(e.reason),
    violations: e.violations.map((v) => create(FieldViolationSchema, v)),
  });
  return new RpcError(GrpcStatus[REASONS[e.reason].grpc], e.message, [{ schema: ErrorDetailSchema, message: detail }, ...more]);
}

/** A bad argument of an operator call, named. */
export function invalidArgument(field: string, description: string): RpcError {
  return toRpcError({ reason: "INVALID_FIELDS", message: `${field}: ${description}`, violations: [{ field, description }] });
}

/** A caller's free text: no control characters (Postgres cannot even carry a NUL). */
export function checkText(field: string, value: string): void {
  if (CONTROL_CHARACTERS.test(value)) throw invalidArgument(field, "must not contain control characters");
}

/** A trace_id the caller names: positive (int32 keeps it below 2^31). */
export function checkTraceId(traceId: number, field = "trace_id"): void {
  if (traceId <= 0) throw invalidArgument(field, "must be a positive integer");
}

// The service's own resources failing, never the caller's request (issue 31: a full data disk answered 500):
// class 53, insufficient resources (53100 disk_full, 53200 out_of_memory, 53300 too_many_connections, 53400 a
// configuration limit) and class 08, connection exceptions (08000, 08003, 08006, 08001, 08004...; 08P01, a NUL byte
// the protocol cannot carry, is the caller's and classifyDataError answers it first).
const UNAVAILABLE_PG_CLASSES = ["53", "08"];
// 57014: a statement cancelled (the serving pool's statement_timeout, orm.ts); 25P04: a batch of hot writes ended by its
// transaction_timeout (write-batch.ts), nothing of it committed: the database was too slow to answer. 57P01-57P03: an
// administrator's or a crash's shutdown, or a server that cannot take connections yet (starting, in recovery). 25006: a
// write on a read-only server (a primary demoted by a failover, still reached until the pool reconnects). 40001, 40P01:
// a serialisation failure or a deadlock. 55000 and 3D000 (a database not there yet) as before.
const UNAVAILABLE_PG_CODES = new Set(["25P04", "25006", "55000", "3D000", "57P01", "57P02", "57P03", "57014", "40001", "40P01"]);

/** A SQLSTATE that says retry later: the database's own trouble, not the call's. */
export function retryableSqlState(code: string): boolean {
  return UNAVAILABLE_PG_CODES.has(code) || (code !== "08P01" && UNAVAILABLE_PG_CLASSES.includes(code.slice(0, 2)));
}
const UNAVAILABLE_NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"]);

/**
 * A value Postgres refused as data (class 22: invalid text, out of range)
 * that validation let through: the caller's input, so INVALID_ARGUMENT, never
 * INTERNAL. Validation should catch these first; this is the safety net.
 */
export function classifyDataError(err: unknown): RpcError | undefined {
  for (const { code } of causes(err)) {
    // 22: invalid text or out of range; 08P01: a NUL byte the protocol cannot carry.
    if (typeof code === "string" && (code.startsWith("22") || code === "08P01")) {
      return toRpcError({ reason: "INVALID_FIELDS", message: "a value is not acceptable (invalid text or out of range)", violations: [] });
    }
  }
  return undefined;
}

/**
 * Failures the caller should simply retry (database down, restarting or
 * failing over, out of disk, memory or connections, a deadlock or
 * serialisation failure) become UNAVAILABLE instead of INTERNAL: the edge
 * answers them 503 with Retry-After, never a 500.
 */
const UNAVAILABLE_NAMES = new Set(["ConnectionException", "DeadlockException", "LockWaitTimeoutException"]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i;

export function classifyInternal(err: unknown): RpcError | undefined {
  for (const { code, name, message } of causes(err)) {
    const retryable =
      (typeof code === "string" && (retryableSqlState(code) || UNAVAILABLE_NET_CODES.has(code))) ||
      (typeof name === "string" && UNAVAILABLE_NAMES.has(name)) ||
      UNAVAILABLE_MESSAGE.test(String(message ?? ""));
    // With its ErrorDetail, as every answer of an engine: the edge tells it from an engine it could not reach by that.
    if (retryable) return toRpcError(domainError("UNAVAILABLE", DATABASE_UNAVAILABLE));
  }
  return undefined;
}
