/** Proto messages <-> domain values, for the engine's RPC layer only. */
import { create } from "@bufbuild/protobuf";
import { offeredRedirect } from "../../shared/transaction.ts";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Customer, ProcessRequest } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import {
  DepositState as PbDepositState,
  MaskedCardSchema,
  PayoutLetter as PbPayoutLetter,
  StatusChangeSchema,
  TransactionSchema,
  TransactionStatus as PbStatus,
  TransactionType as PbType,
  type Transaction,
} from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { MoneySchema } from "../../../gen/cashier/engine/v1/money_pb.js";
import { platformMessageOf } from "../domain/platform-refusal.ts";
import type {
  Attempt,
  CustomerInput,
  DepositState,
  PayoutLetter,
  ProcessInput,
  StatusChange,
  TransactionStatus,
  TransactionType,
} from "../../shared/transaction.ts";

const TYPES: [TransactionType, PbType][] = [
  ["sale", PbType.SALE],
  ["payout", PbType.PAYOUT],
  ["refund", PbType.REFUND],
];
const STATUSES: [TransactionStatus, PbStatus][] = [
  ["pending", PbStatus.PENDING],
  ["approved", PbStatus.APPROVED],
  ["declined_retry", PbStatus.DECLINED_RETRY],
  ["declined", PbStatus.DECLINED],
  ["cancelled", PbStatus.CANCELLED],
  ["pending_async", PbStatus.PENDING_ASYNC],
  ["requested", PbStatus.REQUESTED],
];
const LETTERS: [PayoutLetter, PbPayoutLetter][] = [
  ["A", PbPayoutLetter.AUTHORIZED],
  ["P", PbPayoutLetter.IN_PROGRESS],
  ["Y", PbPayoutLetter.APPROVED],
  ["J", PbPayoutLetter.REJECTED],
  ["C", PbPayoutLetter.CANCELLED],
];
const DEPOSIT: [DepositState, PbDepositState][] = [
  ["N", PbDepositState.DECLINED],
  ["E", PbDepositState.ERROR],
];

const lookup = <A, B>(table: [A, B][], a: A | null | undefined, fallback: B): B => table.find(([x]) => x === a)?.[1] ?? fallback;
const reverse = <A, B>(table: [A, B][], b: B): A | undefined => table.find(([, y]) => y === b)?.[0];

export const typeToProto = (t: TransactionType) => lookup(TYPES, t, PbType.UNSPECIFIED);
export const typeFromProto = (t: PbType) => reverse(TYPES, t);
export const statusToProto = (s: TransactionStatus) => lookup(STATUSES, s, PbStatus.UNSPECIFIED);
export const statusFromProto = (s: PbStatus) => reverse(STATUSES, s);

/** A bigint that does not fit a safe integer becomes NaN, which validation refuses. */
const safeNumber = (v: bigint): number => (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : Number.NaN);

/** The request's customer in the domain's names; an absent member reads as empty (the rules then name it). */
export function customerFromProto(c: Customer | undefined): CustomerInput {
  return {
    pin: c?.pin ?? "",
    email: c?.email ?? "",
    firstName: c?.firstName ?? "",
    lastName: c?.lastName ?? "",
    dob: c?.dob ?? "",
    phone: c?.phone ?? "",
    address: c?.address ?? "",
    city: c?.city ?? "",
    country: c?.country ?? "",
    state: c?.state ?? "",
    zip: c?.zip ?? "",
    requesterIp: c?.requesterIp ?? "",
  };
}

export function processInputFromProto(r: ProcessRequest): ProcessInput {
  return {
    merchantId: r.merchantId,
    orderId: r.orderId,
    type: typeFromProto(r.transactionType),
    amountMinor: r.amount ? safeNumber(r.amount.amountMinor) : 0,
    currency: r.amount?.currency ?? "",
    card: { number: r.card?.number ?? "", cvv: r.card?.cvv ?? "", expiry: r.card?.expiry ?? "" },
    customer: customerFromProto(r.customer),
    frontend: r.frontend,
    returnUrl: r.returnUrl,
    notificationUrl: r.notificationUrl,
    referenceId: r.referenceId,
    timestamp: r.timestamp === undefined ? undefined : safeNumber(r.timestamp),
    version: r.version,
    errorCode: safeNumber(r.errorCode),
    errorDetails: r.errorDetails,
    cardToken: r.cardToken,
  };
}

export function changeToProto(c: StatusChange) {
  return create(StatusChangeSchema, {
    fromStatus: c.fromStatus ? statusToProto(c.fromStatus) : PbStatus.UNSPECIFIED,
    toStatus: statusToProto(c.toStatus),
    payoutLetter: lookup(LETTERS, c.payoutLetter, PbPayoutLetter.UNSPECIFIED),
    cause: c.cause,
    time: timestampFromDate(c.at),
  });
}

export function attemptToProto(a: Attempt, history: StatusChange[] = []): Transaction {
  return create(TransactionSchema, {
    traceId: a.traceId,
    orderId: a.orderId,
    merchantId: a.merchantId,
    transactionType: typeToProto(a.type),
    status: statusToProto(a.status),
    payoutLetter: lookup(LETTERS, a.payoutLetter, PbPayoutLetter.UNSPECIFIED),
    depositState: lookup(DEPOSIT, a.depositState, PbDepositState.UNSPECIFIED),
    amount: create(MoneySchema, { amountMinor: BigInt(a.amountMinor), currency: a.currency }),
    paymentProcessor: a.processor,
    transactionId: a.transactionId ?? "",
    errorCode: a.errorCode ?? 0,
    errorDetails: a.errorDetails ?? "",
    redirectUrl: offeredRedirect(a) ?? "",
    card: create(MaskedCardSchema, { maskedNumber: a.cardMasked, brand: a.cardBrand, expiry: a.cardExpiry }),
    pin: a.pin,
    frontend: a.frontend,
    referenceTraceId: a.referenceTraceId ?? 0,
    attempt: a.attempt,
    createTime: timestampFromDate(a.createdAt),
    updateTime: timestampFromDate(a.updatedAt),
    history: history.map(changeToProto),
    createdBy: a.createdBy,
    sessionId: BigInt(a.sessionRef ?? 0),
    scOrderId: a.scOrderId ?? "",
    routingRule: a.routingRule ?? "",
    platformMessage: platformMessageOf(a),
  });
}
