/**
 * cashier.engine.v1.EngineService: decode -> use case -> encode. No rule lives
 * here; refusals come back from the use cases as data and leave as gRPC errors.
 */
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  EngineService,
  GetTransactionResponseSchema,
  ListTransactionsResponseSchema,
  ProcessResponseSchema,
  SignReplyResponseSchema,
  CompleteChallengeResponseSchema,
} from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { completeChallenge, getChallenge } from "../app/challenge.ts";
import { callbackToProto } from "./callback-mappers.ts";
import { challengeToProto } from "./challenge-mappers.ts";
import { withProtoFieldNames } from "./proto-field-names.ts";
import { TransactionStatus as PbStatus, TransactionType as PbType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { processTransaction } from "../app/process-transaction.ts";
import { describeAttempt } from "../app/describe.ts";
import type { ProcessDeps } from "../app/ports.ts";
import { domainError } from "../domain/errors.ts";
import { signableText } from "../security/canonical.ts";
import { CONTROL_CHARACTERS } from "../domain/validate-process.ts";
import { errorReplyBody, processReplyBody, signBody } from "../callbacks/process-reply-codec.ts";
import type { ServiceImpl } from "./grpc-adapter.ts";
import { invalidArgument, toRpcError } from "./errors.ts";
import { attemptToProto, processInputFromProto, statusFromProto, typeFromProto } from "./proto-mappers.ts";
import { decodePageToken, encodePageToken } from "./page-token.ts";

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export function engineService(deps: ProcessDeps): ServiceImpl<typeof EngineService> {
  return {
    async process(req) {
      const wire = req.wireSignature ? { canonical: req.wireSignature.canonical, signature: req.wireSignature.signature } : undefined;
      const result = await processTransaction(deps, processInputFromProto(req), wire);
      // The edge turns refusals into the wire's names; a direct caller gets its request's.
      if (!result.ok) throw toRpcError(wire ? result.error : withProtoFieldNames(result.error));
      const description = describeAttempt(result.attempt);
      return create(ProcessResponseSchema, {
        transaction: attemptToProto(result.attempt),
        description,
        replySignature: wire ? signBody(result.merchant.signingKey, processReplyBody(result.attempt, description)) : "",
        replayed: result.replayed,
      });
    },

    async getTransaction(req) {
      if (req.traceId <= 0) throw invalidArgument("trace_id", "must be a positive integer");
      const attempt = await deps.orders.get(req.traceId);
      if (!attempt) throw toRpcError(domainError("NOT_FOUND", `no transaction with trace_id ${req.traceId}`));
      const [history, callbacks] = await Promise.all([deps.orders.history(req.traceId), deps.callbacks.forTransaction(req.traceId)]);
      return create(GetTransactionResponseSchema, { transaction: attemptToProto(attempt, history), callbacks: callbacks.map(callbackToProto) });
    },

    async listTransactions(req) {
      if (req.pageSize < 0 || req.pageSize > MAX_PAGE_SIZE) throw invalidArgument("page_size", `must be 0 to ${MAX_PAGE_SIZE}`);
      for (const [field, value] of [["merchant_id", req.merchantId], ["order_id", req.orderId], ["pin", req.pin]] as const) {
        if (CONTROL_CHARACTERS.test(value)) throw invalidArgument(field, "must not contain control characters");
      }
      const after = req.pageToken ? decodePageToken(req.pageToken) : undefined;
      if (req.pageToken && after === undefined) throw invalidArgument("page_token", "is not a token this service issued");
      const type = req.transactionType === PbType.UNSPECIFIED ? undefined : typeFromProto(req.transactionType);
      if (req.transactionType !== PbType.UNSPECIFIED && !type) throw invalidArgument("transaction_type", "is not a TransactionType");
      const status = req.status === PbStatus.UNSPECIFIED ? undefined : statusFromProto(req.status);
      if (req.status !== PbStatus.UNSPECIFIED && !status) throw invalidArgument("status", "is not a TransactionStatus");
      const startTime = req.startTime ? timestampDate(req.startTime) : undefined;
      const endTime = req.endTime ? timestampDate(req.endTime) : undefined;
      if (startTime && endTime && startTime > endTime) throw invalidArgument("end_time", "is before start_time");
      const limit = req.pageSize || DEFAULT_PAGE_SIZE;
      const rows = await deps.orders.list({
        merchantId: req.merchantId || undefined,
        orderId: req.orderId || undefined,
        pin: req.pin || undefined,
        type,
        status,
        startTime,
        endTime,
        afterTraceId: after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return create(ListTransactionsResponseSchema, {
        transactions: page.map((a) => attemptToProto(a)),
        nextPageToken: rows.length > limit ? encodePageToken(page[page.length - 1].traceId) : "",
      });
    },

    async signReply(req) {
      if (req.status === 0) throw invalidArgument("status", "a refused reply has a non-zero status");
      // Only text that cannot pose as other members of a canonical string is signed.
      if (signableText(req.description) !== req.description) throw invalidArgument("description", "must be at most 256 characters without &, = or control characters");
      if (CONTROL_CHARACTERS.test(req.merchantId)) throw invalidArgument("merchant_id", "must not contain control characters");
      const merchant = req.merchantId ? await deps.merchants.get(req.merchantId) : undefined;
      if (!merchant) throw toRpcError(domainError("UNKNOWN_MERCHANT", "Unknown merchant_id"));
      return create(SignReplyResponseSchema, { signature: signBody(merchant.signingKey, errorReplyBody(req.status, req.description, req.version || undefined)) });
    },

    async getChallenge(req) {
      if (req.traceId <= 0) throw invalidArgument("trace_id", "must be a positive integer");
      const found = await getChallenge(deps, req.traceId, req.mac);
      if (!found.ok) throw toRpcError(found.error);
      return challengeToProto(found.view);
    },

    async completeChallenge(req) {
      if (req.traceId <= 0) throw invalidArgument("trace_id", "must be a positive integer");
      const done = await completeChallenge(deps, req.traceId, req.mac, req.passed);
      if (!done.ok) throw toRpcError(done.error);
      return create(CompleteChallengeResponseSchema, { transaction: attemptToProto(done.attempt), returnUrl: done.attempt.returnUrl });
    },
  };
}
