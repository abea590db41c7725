/**
 * cashier.engine.v1.CashierService: decode -> use case -> encode, as
 * EngineService. A session start that came over the HTTP wire (it carries the
 * body's signature) is answered with the reply JSON rendered and signed here,
 * a refusal with that JSON in the gRPC error's details, exactly as Process
 * (process-wire.ts). The customer's calls name their browser session.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CancelWithdrawalResponseSchema,
  type CashierService,
  DeleteSavedCardResponseSchema,
  GetBrandLogoResponseSchema,
  GetCashierSessionResponseSchema,
  GetSessionTransactionResponseSchema,
  RedeemAutologinResponseSchema,
  type StartSessionRequest,
  type StartSessionResponse,
  StartSessionResponseSchema,
  SubmitDepositResponseSchema,
  SubmitFieldsResponseSchema,
  SubmitWithdrawalResponseSchema,
} from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { SignedReplySchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { cancelWithdrawal, deleteSavedCard, sessionTransaction } from "../app/cashier-actions.ts";
import { customerText } from "../app/cashier-forms.ts";
import type { CashierDeps } from "../ports/ports.ts";
import { redeemAutologin, sessionView } from "../app/cashier-session.ts";
import { startSession, type StartedSession } from "../app/start-session.ts";
import { submitDeposit } from "../app/submit-deposit.ts";
import { submitWithdrawal } from "../app/submit-withdrawal.ts";
import { submitFields } from "../app/submit-fields.ts";
import { MaskedCardSchema } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { REASONS, domainError, inCallerNames, type DomainError } from "../../shared/errors.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { HmacKey } from "../../shared/hmac.ts";
import { describeForReply } from "../../shared/wire/refusal.ts";
import { SESSION_PROTO_PATHS, SESSION_WIRE_NAMES } from "../../shared/wire/session-names.ts";
import { sessionRefusalReply, sessionReply } from "../../shared/wire/session-reply.ts";
import { wireViolationsError } from "../../shared/wire/wire-violations.ts";
import { cashierSession } from "./cashier-session-rpc.ts";
import { formAmount, newCardSource, sessionInputFromProto, sessionToProto } from "./cashier-mappers.ts";
import { checkText, checkTraceId, toRpcError } from "../../rpc/errors.ts";
import type { RpcError, ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";

/** The key of a refused wire start: the named merchant's, when the engine knows it (as Process's refusals). */
async function refusalKey(deps: CashierDeps, e: DomainError, merchantId: string): Promise<HmacKey | undefined> {
  if (e.reason === "UNKNOWN_MERCHANT" || merchantId === "" || CONTROL_CHARACTERS.test(merchantId)) return undefined;
  return (await deps.merchants.get(merchantId).catch(() => undefined))?.signingKey;
}

async function refusedOnWire(deps: CashierDeps, e: DomainError, merchantId: string): Promise<RpcError> {
  const description = e.violations.length > 0 ? describeForReply(e.violations) : e.message;
  const json = sessionRefusalReply(REASONS[e.reason].status, description, await refusalKey(deps, e, merchantId));
  return toRpcError(e, [{ schema: SignedReplySchema, message: create(SignedReplySchema, { json }) }]);
}

function started(s: StartedSession, wireReply?: string): StartSessionResponse {
  return create(StartSessionResponseSchema, {
    redirectUrl: s.redirectUrl,
    authToken: s.authToken,
    expireTime: timestampFromDate(s.session.expiresAt),
    replayed: s.replayed,
    wireReply: wireReply === undefined ? undefined : { json: wireReply },
  });
}

async function startFromWire(deps: CashierDeps, req: StartSessionRequest): Promise<StartSessionResponse> {
  const input = sessionInputFromProto(req);
  if (req.wireViolations.length > 0) throw await refusedOnWire(deps, wireViolationsError(req.wireViolations, input.currency), input.merchantId);
  const wire = { canonical: req.wireSignature?.canonical ?? "", signature: req.wireSignature?.signature ?? "" };
  const result = await startSession(deps, input, wire);
  if (!result.ok) throw await refusedOnWire(deps, inCallerNames(result.error, SESSION_WIRE_NAMES), input.merchantId);
  const description = result.replayed ? "Session already started; the same session is answered" : "Session started";
  const expiresAt = Math.floor(result.session.expiresAt.getTime() / 1000);
  return started(result, sessionReply({ redirectUrl: result.redirectUrl, authToken: result.authToken, expiresAt }, description, result.merchant.signingKey));
}

export function cashierService(deps: CashierDeps): ServiceImpl<typeof CashierService> {
  return {
    async startSession(req) {
      if (req.wireSignature) return startFromWire(deps, req);
      const result = await startSession(deps, sessionInputFromProto(req), undefined);
      if (!result.ok) throw toRpcError(inCallerNames(result.error, SESSION_PROTO_PATHS));
      return started(result);
    },

    async redeemAutologin(req) {
      const redeemed = await redeemAutologin(deps, req.autologinToken, { framed: req.framed, ancestor: req.framingOrigin });
      if (!redeemed.ok) throw toRpcError(redeemed.error);
      return create(RedeemAutologinResponseSchema, { sessionToken: redeemed.sessionToken, session: sessionToProto(await sessionView(deps, redeemed.open)) });
    },

    async getBrandLogo(req) {
      const png = await deps.logos.get(req.sha256);
      if (!png) throw toRpcError(domainError("NOT_FOUND", "no logo has this SHA-256"));
      return create(GetBrandLogoResponseSchema, { png });
    },

    async getCashierSession(req) {
      const open = await cashierSession(deps, req.sessionToken);
      return create(GetCashierSessionResponseSchema, { session: sessionToProto(await sessionView(deps, open)) });
    },

    async submitDeposit(req) {
      checkText("requester_ip", req.requesterIp);
      checkText("return_url", req.returnUrl);
      checkText("submission_key", req.submissionKey);
      if (req.source.case === "savedCardId") checkText("saved_card_id", req.source.value);
      const source =
        req.source.case === "newCard"
          ? newCardSource(req.source.value)
          : req.source.case === "savedCardId"
            ? { kind: "saved" as const, id: req.source.value, cvv: req.savedCardCvv }
            : undefined;
      const result = await submitDeposit(deps, {
        sessionToken: req.sessionToken,
        ...formAmount(req.amount),
        source,
        requesterIp: req.requesterIp,
        returnUrl: req.returnUrl,
        submissionKey: req.submissionKey,
      });
      if (!result.ok) throw toRpcError(result.error);
      return create(SubmitDepositResponseSchema, {
        transaction: attemptToProto(result.attempt),
        description: customerText(result.attempt),
        replayed: result.replayed,
      });
    },

    async submitWithdrawal(req) {
      checkText("requester_ip", req.requesterIp);
      const d = req.destination;
      if (d.case === "savedCardId") checkText("saved_card_id", d.value);
      const destination =
        d.case === "newCard" ? newCardSource(d.value) : d.case === "savedCardId" ? { kind: "saved" as const, id: d.value, cvv: "" } : undefined;
      const result = await submitWithdrawal(deps, { sessionToken: req.sessionToken, ...formAmount(req.amount), destination, requesterIp: req.requesterIp });
      if (!result.ok) throw toRpcError(result.error);
      return create(SubmitWithdrawalResponseSchema, {
        transaction: attemptToProto(result.attempt),
        description: customerText(result.attempt),
        replayed: result.replayed,
      });
    },

    async cancelWithdrawal(req) {
      checkTraceId(req.traceId);
      const done = await cancelWithdrawal(deps, req.sessionToken, req.traceId);
      if (!done.ok) throw toRpcError(done.error);
      return create(CancelWithdrawalResponseSchema, { transaction: attemptToProto(done.attempt) });
    },

    async deleteSavedCard(req) {
      checkText("card_id", req.cardId);
      const done = await deleteSavedCard(deps, req.sessionToken, req.cardId);
      if (!done.ok) throw toRpcError(done.error);
      return create(DeleteSavedCardResponseSchema, {});
    },

    async submitFields(req) {
      checkText("holder", req.holder);
      const card = { number: req.card?.number ?? "", expiry: req.card?.expiry ?? "", cvv: req.card?.cvv ?? "" };
      const minted = await submitFields(deps, { sessionToken: req.sessionToken, card, holder: req.holder });
      if (!minted.ok) throw toRpcError(minted.error);
      return create(SubmitFieldsResponseSchema, {
        cardToken: minted.cardToken,
        card: create(MaskedCardSchema, { maskedNumber: minted.cardMasked, brand: minted.cardBrand, expiry: minted.cardExpiry }),
        expireTime: timestampFromDate(minted.expiresAt),
      });
    },

    async getSessionTransaction(req) {
      checkTraceId(req.traceId);
      const found = await sessionTransaction(deps, req.sessionToken, req.traceId);
      if (!found.ok) throw toRpcError(found.error);
      return create(GetSessionTransactionResponseSchema, { transaction: attemptToProto(found.attempt), description: customerText(found.attempt) });
    },
  };
}
