/**
 * cashier.engine.v1.EngineService: decode -> use case -> encode. No rule lives
 * here; refusals come back from the use cases as data and leave as gRPC errors.
 */
import { create } from "@bufbuild/protobuf";
import {
  type EngineService,
  GetTransactionResponseSchema,
  ListTransactionsResponseSchema,
  ProcessResponseSchema,
  CompleteChallengeResponseSchema,
} from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { completeChallenge, getChallenge } from "../app/challenge.ts";
import { callbackToProto } from "./callback-mappers.ts";
import { challengeToProto } from "./challenge-mappers.ts";
import { PROTO_PATHS } from "./proto-paths.ts";
import { processFromWire } from "./process-wire.ts";
import { TransactionStatus as PbStatus, TransactionType as PbType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { processTransaction } from "../app/process-transaction.ts";
import { describeAttempt } from "../app/describe.ts";
import type { ProcessDeps } from "../app/ports.ts";
import { domainError, inCallerNames } from "../domain/errors.ts";
import type { ServiceImpl } from "./grpc-adapter.ts";
import { checkText, checkTraceId, invalidArgument, toRpcError } from "./errors.ts";
import { attemptToProto, processInputFromProto, statusFromProto, typeFromProto } from "./proto-mappers.ts";
import { pageOf, readPage } from "./page-token.ts";
import { timeArgument } from "./time-argument.ts";

export function engineService(deps: ProcessDeps): ServiceImpl<typeof EngineService> {
  return {
    async process(req) {
      const input = processInputFromProto(req);
      // The HTTP edge's call: answered with the seed's reply, rendered and signed here.
      if (req.wireSignature) return processFromWire(deps, req, input);
      // A direct gRPC caller: typed answers, refusals naming its request's fields.
      const result = await processTransaction(deps, input, undefined);
      if (!result.ok) throw toRpcError(inCallerNames(result.error, PROTO_PATHS));
      return create(ProcessResponseSchema, {
        transaction: attemptToProto(result.attempt),
        description: describeAttempt(result.attempt),
        replayed: result.replayed,
      });
    },

    async getTransaction(req) {
      checkTraceId(req.traceId);
      const attempt = await deps.orders.get(req.traceId);
      if (!attempt) throw toRpcError(domainError("NOT_FOUND", `no transaction with trace_id ${req.traceId}`));
      const [history, callbacks] = await Promise.all([deps.orders.history(req.traceId), deps.callbacks.forTransaction(req.traceId)]);
      return create(GetTransactionResponseSchema, { transaction: attemptToProto(attempt, history), callbacks: callbacks.map(callbackToProto) });
    },

    async listTransactions(req) {
      for (const [field, value] of [
        ["merchant_id", req.merchantId],
        ["order_id", req.orderId],
        ["pin", req.pin],
      ] as const) {
        checkText(field, value);
      }
      const { read, limit, after } = readPage<number>(req, "number");
      const type = req.transactionType === PbType.UNSPECIFIED ? undefined : typeFromProto(req.transactionType);
      if (req.transactionType !== PbType.UNSPECIFIED && !type) throw invalidArgument("transaction_type", "is not a TransactionType");
      const status = req.status === PbStatus.UNSPECIFIED ? undefined : statusFromProto(req.status);
      if (req.status !== PbStatus.UNSPECIFIED && !status) throw invalidArgument("status", "is not a TransactionStatus");
      const startTime = timeArgument("start_time", req.startTime);
      const endTime = timeArgument("end_time", req.endTime);
      if (startTime && endTime && startTime > endTime) throw invalidArgument("end_time", "is before start_time");
      const rows = await deps.orders.list({
        merchantId: req.merchantId || undefined,
        orderId: req.orderId || undefined,
        pin: req.pin || undefined,
        type,
        status,
        startTime,
        endTime,
        afterTraceId: after,
        limit: read,
      });
      const page = pageOf(rows, limit, (a) => a.traceId);
      return create(ListTransactionsResponseSchema, { transactions: page.items.map((a) => attemptToProto(a)), nextPageToken: page.nextPageToken });
    },

    async getChallenge(req) {
      checkTraceId(req.traceId);
      const found = await getChallenge(deps, req.traceId, req.mac);
      if (!found.ok) throw toRpcError(found.error);
      // A hosted Cashier deposit's challenge may be framed where its Cashier may be.
      const a = found.view.attempt;
      const frontend = a.sessionRef === null ? undefined : (await deps.merchants.get(a.merchantId))?.frontends.find((f) => f.name === a.frontend);
      return challengeToProto(found.view, frontend?.settings.allowedOrigins ?? []);
    },

    async completeChallenge(req) {
      checkTraceId(req.traceId);
      const done = await completeChallenge(deps, req.traceId, req.mac, req.passed);
      if (!done.ok) throw toRpcError(done.error);
      return create(CompleteChallengeResponseSchema, { transaction: attemptToProto(done.attempt), returnUrl: done.attempt.returnUrl });
    },
  };
}
