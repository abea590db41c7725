/** The challenge view -> GetChallengeResponse: what the hosted page may show (masked card only). */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ChallengeState, GetChallengeResponseSchema, type GetChallengeResponse } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import type { ChallengeView } from "../app/challenge.ts";
import { attemptToProto } from "./proto-mappers.ts";

const STATES = { open: ChallengeState.OPEN, finished: ChallengeState.FINISHED, expired: ChallengeState.EXPIRED } as const;

export function challengeToProto(v: ChallengeView, allowedOrigins: string[] = []): GetChallengeResponse {
  const t = attemptToProto(v.attempt);
  return create(GetChallengeResponseSchema, {
    state: STATES[v.state],
    merchantId: v.attempt.merchantId,
    orderId: v.attempt.orderId,
    amount: t.amount,
    card: t.card,
    returnUrl: v.attempt.returnUrl,
    expireTime: v.state === "open" && v.attempt.challengeExpiresAt ? timestampFromDate(v.attempt.challengeExpiresAt) : undefined,
    status: t.status,
    allowedOrigins,
    // Only while the customer has it still to do: a finished challenge's page sends nobody back to the acquirer.
    acquirerUrl: v.state === "open" ? (v.attempt.acquirerRedirectUrl ?? "") : "",
  });
}
