/**
 * Process for a request that came over the HTTP wire (it carries the body's
 * signature): the use case, then the seed's reply rendered and signed by the
 * engine, which alone holds the merchant's secret, in this one call. An
 * answer carries its reply in the response; a refusal carries it in the gRPC
 * error's details (a SignedReply beside the ErrorDetail), so the edge writes
 * the engine's bytes either way and never asks for a signature.
 */
import { create } from "@bufbuild/protobuf";
import { type ProcessRequest, type ProcessResponse, ProcessResponseSchema, SignedReplySchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { describeAttempt } from "../domain/describe.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { processTransaction } from "../app/process-transaction.ts";
import type { DomainError } from "../../shared/errors.ts";
import type { ProcessInput } from "../../shared/transaction.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { HmacKey } from "../../shared/hmac.ts";
import { processedReply } from "../../shared/wire/process-reply.ts";
import { inWireNames, refusalJson } from "../../shared/wire/refusal.ts";
import { wireViolationsError } from "../../shared/wire/wire-violations.ts";
import { toRpcError } from "../../rpc/errors.ts";
import type { RpcError } from "../../rpc/grpc-adapter.ts";
import { attemptToProto } from "./proto-mappers.ts";

/**
 * The key that signs a refusal: the secret of the merchant the request names,
 * if there is one (CONTRACT section 2: a reply that cannot be tied to a
 * merchant carries `signature: null`). The engine signs only replies it
 * rendered itself, from its own words.
 */
async function refusalKey(deps: ProcessDeps, e: DomainError, merchantId: string): Promise<HmacKey | undefined> {
  if (e.reason === "UNKNOWN_MERCHANT" || merchantId === "" || CONTROL_CHARACTERS.test(merchantId)) return undefined;
  // A refusal stays the caller's 4xx when the merchant cannot be looked up (its database gone): unsigned, never a 503.
  return (await deps.merchants.get(merchantId).catch(() => undefined))?.signingKey;
}

/** `e` in the seed's member names: the gRPC error, with the signed reply in its details. */
async function refused(deps: ProcessDeps, e: DomainError, merchantId: string): Promise<RpcError> {
  const json = refusalJson(e, await refusalKey(deps, e, merchantId));
  return toRpcError(e, [{ schema: SignedReplySchema, message: create(SignedReplySchema, { json }) }]);
}

export async function processFromWire(deps: ProcessDeps, req: ProcessRequest, input: ProcessInput): Promise<ProcessResponse> {
  // Members the edge could not type: refused before anything is looked at, as their values mean nothing yet.
  if (req.wireViolations.length > 0) throw await refused(deps, wireViolationsError(req.wireViolations, input.currency), input.merchantId);
  const wire = {
    canonical: req.wireSignature?.canonical ?? "",
    signature: req.wireSignature?.signature ?? "",
    unknownMembers: req.wireSignature?.unknownMembers ?? {},
  };
  const result = await processTransaction(deps, input, wire);
  if (!result.ok) throw await refused(deps, inWireNames(result.error), input.merchantId);
  const description = describeAttempt(result.attempt);
  return create(ProcessResponseSchema, {
    transaction: attemptToProto(result.attempt),
    description,
    replayed: result.replayed,
    wireReply: { json: processedReply(result.attempt, description, result.merchant.signingKey) },
  });
}
