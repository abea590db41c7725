/**
 * cashier.engine.v1.EngineService: decode -> use case -> encode. No rule lives
 * here; refusals come back from the use cases as data and leave as gRPC errors.
 */
import { create } from "@bufbuild/protobuf";
import {
  type EngineService,
  GetTransactionResponseSchema,
  ProcessResponseSchema,
  CompleteChallengeResponseSchema,
  ReturnFromChallengeResponseSchema,
  ReceiveAcquirerWebhookResponseSchema,
} from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { completeChallenge, getChallenge, returnFromChallenge } from "../app/challenge.ts";
import { callbackToProto } from "./callback-mappers.ts";
import { challengeToProto } from "./challenge-mappers.ts";
import { PROTO_PATHS } from "../../shared/wire/proto-paths.ts";
import { processFromWire } from "./process-wire.ts";
import { processTransaction } from "../app/process-transaction.ts";
import { describeAttempt } from "../domain/describe.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import type { WebhookInbox } from "../ports/webhook-inbox.ts";
import { receiveAcquirerWebhook } from "../app/receive-acquirer-webhook.ts";
import { domainError, inCallerNames } from "../../shared/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import { attemptToProto, processInputFromProto } from "./proto-mappers.ts";
import { listTransactions } from "./list-transactions.ts";

/** What EngineService's handlers call: the payments use cases' deps and the acquirers' webhook inbox. */
export interface EngineServiceDeps extends ProcessDeps {
  webhookInbox: WebhookInbox;
}

export function engineService(deps: EngineServiceDeps): ServiceImpl<typeof EngineService> {
  return {
    async process(req) {
      const input = processInputFromProto(req);
      // The HTTP edge's call: answered with the seed's reply, rendered and signed here.
      if (req.wireSignature) return processFromWire(deps, req, input);
      // A direct gRPC caller: typed answers, refusals naming its request's fields. Its message is typed
      // already; findings about a JSON body (the edge's) come only with that body's wire_signature.
      if (req.wireViolations.length > 0) throw invalidArgument("wire_violations", "is the HTTP edge's, sent only with wire_signature");
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
      return listTransactions(deps, req);
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

    async returnFromChallenge(req) {
      checkTraceId(req.traceId);
      const done = await returnFromChallenge(deps, req.traceId, req.mac, req.params);
      if (!done.ok) throw toRpcError(done.error);
      return create(ReturnFromChallengeResponseSchema, { transaction: attemptToProto(done.attempt), returnUrl: done.attempt.returnUrl });
    },

    async receiveAcquirerWebhook(req) {
      const hook = { merchantId: req.merchantId, account: req.account, headers: req.headers, body: Buffer.from(req.body) };
      const done = await receiveAcquirerWebhook(deps, deps.webhookInbox, hook);
      if (!done.ok) throw toRpcError(done.error);
      return create(ReceiveAcquirerWebhookResponseSchema, done.ack);
    },
  };
}
