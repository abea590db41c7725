/**
 * A fault of the service's own resources is a retryable refusal, never a 500
 * (issue 31: a full data disk answered every client HTTP 500, status -1):
 * each SQLSTATE, however the driver and the ORM wrapped it, against what the
 * engine answers: UNAVAILABLE with the catalogue's reason, or INVALID_ARGUMENT
 * for bad data, or nothing (INTERNAL, a fault of ours).
 */
import { status as GrpcStatus } from "@grpc/grpc-js";
import t from "tap";
import { ErrorDetailSchema, ErrorReason } from "../../../../gen/cashier/engine/v1/errors_pb.js";
import { classifyEngineError } from "../../../../engine/rpc/server.ts";
import { retryableSqlState } from "../../../../engine/rpc/errors.ts";
import { DATABASE_UNAVAILABLE } from "../../../../engine/shared/errors.ts";

const pgError = (code: string, message = "words of Postgres") => Object.assign(new Error(message), { code });
/** MikroORM's wrapping: its exception keeps the driver's error in `previous`. */
const wrapped = (code: string) => Object.assign(new Error("insert into ... - could not extend file"), { name: "DriverException", previous: pgError(code) });

const RETRYABLE: [code: string, what: string][] = [
  ["53100", "disk_full"],
  ["53200", "out_of_memory"],
  ["53300", "too_many_connections"],
  ["53000", "insufficient_resources"],
  ["53400", "configuration_limit_exceeded"],
  ["57P01", "admin_shutdown"],
  ["57P02", "crash_shutdown"],
  ["57P03", "cannot_connect_now"],
  ["08000", "connection_exception"],
  ["08003", "connection_does_not_exist"],
  ["08006", "connection_failure"],
  ["08001", "sqlclient_unable_to_establish_sqlconnection"],
  ["08004", "sqlserver_rejected_establishment_of_sqlconnection"],
  ["08007", "transaction_resolution_unknown"],
  ["25006", "read_only_sql_transaction (a demoted primary)"],
  ["57014", "query_canceled (statement_timeout)"],
  ["25P04", "transaction_timeout"],
  ["40001", "serialization_failure"],
  ["40P01", "deadlock_detected"],
];

t.test("the database's own trouble: UNAVAILABLE with the reason UNAVAILABLE, wrapped or not", async (t) => {
  for (const [code, what] of RETRYABLE) {
    t.equal(retryableSqlState(code), true, `${code} ${what}`);
    for (const err of [pgError(code), wrapped(code)]) {
      const answer = classifyEngineError(err);
      t.equal(answer?.code, GrpcStatus.UNAVAILABLE, `${code} ${what}: UNAVAILABLE`);
      t.equal(answer?.message, DATABASE_UNAVAILABLE, "our words, never Postgres's");
      const detail = answer?.details.find((d) => d.schema === ErrorDetailSchema)?.message as { reason: ErrorReason } | undefined;
      t.equal(detail?.reason, ErrorReason.UNAVAILABLE, `${code}: the catalogue's reason (status -2, HTTP 503)`);
    }
  }
});

t.test("the caller's data and our own faults are not retryable", async (t) => {
  t.equal(classifyEngineError(pgError("08P01"))?.code, GrpcStatus.INVALID_ARGUMENT, "08P01: a NUL byte, the caller's");
  t.equal(classifyEngineError(pgError("22001"))?.code, GrpcStatus.INVALID_ARGUMENT, "22001: too long, the caller's");
  for (const code of ["23505", "42P01", "42703", "XX000", "P0001", "2200", ""]) {
    t.equal(retryableSqlState(code), false, `${code || "no code"}`);
    if (!code.startsWith("22")) t.equal(classifyEngineError(pgError(code)), undefined, `${code || "no code"}: INTERNAL, a fault of ours`);
  }
});
