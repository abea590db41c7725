/** Operators, sessions, passkeys, audit rows and read sources -> cashier.admin.v1 messages, and the console's refusals -> gRPC errors. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { AuditEntrySchema, AuditOutcome } from "../../../gen/cashier/admin/v1/audit_pb.js";
import { ConsoleSessionSchema, PasskeySchema } from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { ReadSourceSchema } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { type ConsoleContext, ConsoleErrorReason, ConsoleErrorSchema } from "../../../gen/cashier/admin/v1/console_pb.js";
import {
  EnrolmentSchema,
  OperatorRole,
  OperatorSchema,
  OperatorState,
  PendingChangeKind,
  PendingChangeSchema,
} from "../../../gen/cashier/admin/v1/operator_pb.js";
import { ErrorDetailSchema, ErrorReason } from "../../../gen/cashier/engine/v1/errors_pb.js";
import type { ConsoleCaller } from "../ports/ports.ts";
import type { StartedSession } from "../app/console-session.ts";
import type { AuditRow } from "../domain/audit-chain.ts";
import { type ConsoleReason, ConsoleRefusal } from "../domain/console-rules.ts";
import { actionsOf, type Role } from "../domain/operator-roles.ts";
import type { OperatorRecord, OperatorState as State } from "../ports/operators.ts";
import type { PasskeyRecord } from "../ports/passkeys.ts";
import type { ReadSource } from "../ports/read-replica.ts";
import { RpcError } from "../../rpc/grpc-adapter.ts";
import { EVERY_CONTROL_CHARACTER } from "../../shared/control-characters.ts";
import { BULK_APPROVE_MAX } from "../../shared/payout-reasons.ts";

const ROLE_TO: Record<Role, OperatorRole> = {
  viewer: OperatorRole.VIEWER,
  support: OperatorRole.SUPPORT,
  payouts: OperatorRole.PAYOUTS,
  admin: OperatorRole.ADMIN,
};
export const roleToProto = (r: Role) => ROLE_TO[r];
/** The role's name, or undefined for UNSPECIFIED or an unknown number. */
export const roleFromProto = (r: OperatorRole): Role | undefined => (Object.entries(ROLE_TO) as [Role, OperatorRole][]).find(([, v]) => v === r)?.[0];

const STATE_TO: Record<State, OperatorState> = {
  proposed: OperatorState.PROPOSED,
  enrolling: OperatorState.ENROLLING,
  active: OperatorState.ACTIVE,
  disabled: OperatorState.DISABLED,
};
const PENDING_TO = { create: PendingChangeKind.CREATE, update: PendingChangeKind.UPDATE, reset: PendingChangeKind.RESET } as const;
export const stateFromProto = (s: OperatorState): State | undefined | null =>
  s === OperatorState.UNSPECIFIED ? undefined : ((Object.entries(STATE_TO) as [State, OperatorState][]).find(([, v]) => v === s)?.[0] ?? null);

const ts = (d: Date | null | undefined) => (d ? timestampFromDate(d) : undefined);

export function operatorToProto(o: OperatorRecord, now: Date) {
  return create(OperatorSchema, {
    login: o.login,
    role: roleToProto(o.role),
    merchantIds: o.merchantIds,
    state: STATE_TO[o.state],
    createTime: ts(o.createdAt),
    updateTime: ts(o.updatedAt),
    lastSignInTime: ts(o.lastSignInAt),
    lockedUntilTime: o.lockedUntil && o.lockedUntil > now ? ts(o.lockedUntil) : undefined,
    passkeyCount: o.passkeyCount,
    recoveryCodesLeft: o.recoveryHashes.length,
    createdBy: o.createdBy,
    pendingChange: o.pending
      ? create(PendingChangeSchema, {
          kind: PENDING_TO[o.pending.kind],
          role: roleToProto(o.pending.role),
          merchantIds: o.pending.merchantIds,
          proposedBy: o.pending.proposedBy,
          proposeTime: ts(o.pending.proposedAt),
        })
      : undefined,
  });
}

export const enrolmentToProto = (e: { token: string; expiresAt: Date } | undefined) =>
  e ? create(EnrolmentSchema, { token: e.token, expireTime: timestampFromDate(e.expiresAt) }) : undefined;

export function sessionToProto(s: { token?: string; idleEnd: Date; operator: OperatorRecord }, now: Date) {
  return create(ConsoleSessionSchema, {
    sessionToken: s.token ?? "",
    idleExpireTime: timestampFromDate(s.idleEnd),
    operator: operatorToProto(s.operator, now),
    allowedActions: actionsOf(s.operator.role),
  });
}

export const startedToProto = (s: StartedSession, now: Date) => sessionToProto(s, now);

export const passkeyToProto = (p: PasskeyRecord) =>
  create(PasskeySchema, { id: p.id, name: p.name, createTime: ts(p.createdAt), lastUsedTime: ts(p.lastUsedAt) });

export const auditToProto = (r: AuditRow) =>
  create(AuditEntrySchema, {
    id: BigInt(r.id),
    time: timestampFromDate(r.at),
    actor: r.actor,
    action: r.action,
    outcome: r.outcome === "success" ? AuditOutcome.SUCCESS : AuditOutcome.FAILURE,
    merchantId: r.merchantId,
    target: r.target,
    clientAddress: r.clientAddress,
    beforeJson: r.beforeJson,
    afterJson: r.afterJson,
    detail: r.detail,
    hash: r.hash,
  });

/** The caller as the use cases see it: no control characters, bounded lengths. */
export function callerOf(ctx: ConsoleContext | undefined): ConsoleCaller {
  const clean = (s: string | undefined, max: number) => (s ?? "").replace(EVERY_CONTROL_CHARACTER, "").slice(0, max);
  return {
    sessionToken: clean(ctx?.sessionToken, 256),
    clientAddress: clean(ctx?.clientAddress, 64),
    userAgent: clean(ctx?.userAgent, 256),
    origin: clean(ctx?.origin, 256),
  };
}

const CODES: Record<ConsoleReason, { grpc: GrpcStatus; reason: ErrorReason; console: ConsoleErrorReason }> = {
  SESSION_REQUIRED: { grpc: GrpcStatus.UNAUTHENTICATED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.SESSION_REQUIRED },
  SESSION_ENDED: { grpc: GrpcStatus.UNAUTHENTICATED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.SESSION_ENDED },
  SIGN_IN_REFUSED: { grpc: GrpcStatus.UNAUTHENTICATED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.SIGN_IN_REFUSED },
  SECOND_FACTOR_REFUSED: { grpc: GrpcStatus.UNAUTHENTICATED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.SECOND_FACTOR_REFUSED },
  SIGN_IN_EXPIRED: { grpc: GrpcStatus.UNAUTHENTICATED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.SIGN_IN_EXPIRED },
  ACTION_DENIED: { grpc: GrpcStatus.PERMISSION_DENIED, reason: ErrorReason.UNSPECIFIED, console: ConsoleErrorReason.ACTION_DENIED },
  ENROLMENT_INVALID: { grpc: GrpcStatus.NOT_FOUND, reason: ErrorReason.NOT_FOUND, console: ConsoleErrorReason.ENROLMENT_INVALID },
  FOUR_EYES_SAME_OPERATOR: { grpc: GrpcStatus.FAILED_PRECONDITION, reason: ErrorReason.INVALID_STATE, console: ConsoleErrorReason.FOUR_EYES_SAME_OPERATOR },
  FOUR_EYES_ISSUED_ACCESS: { grpc: GrpcStatus.FAILED_PRECONDITION, reason: ErrorReason.INVALID_STATE, console: ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS },
  ENROLMENT_OTHER_BROWSER: { grpc: GrpcStatus.FAILED_PRECONDITION, reason: ErrorReason.INVALID_STATE, console: ConsoleErrorReason.ENROLMENT_OTHER_BROWSER },
  DUAL_CONTROL_SAME_ADMIN: { grpc: GrpcStatus.FAILED_PRECONDITION, reason: ErrorReason.INVALID_STATE, console: ConsoleErrorReason.DUAL_CONTROL_SAME_ADMIN },
};

export function refusalToRpc(r: ConsoleRefusal): RpcError {
  const c = CODES[r.reason];
  return new RpcError(c.grpc, r.message, [
    { schema: ErrorDetailSchema, message: create(ErrorDetailSchema, { reason: c.reason }) },
    { schema: ConsoleErrorSchema, message: create(ConsoleErrorSchema, { reason: c.console, action: r.action }) },
  ]);
}

/** Runs a handler, turning a ConsoleRefusal into its gRPC error. */
export async function consoleCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ConsoleRefusal) throw refusalToRpc(err);
    throw err;
  }
}

/** An audit row's target for the payouts a console call named: at most the bulk limit of them. */
export function payoutsTarget(traceIds: readonly number[]): string {
  return traceIds
    .slice(0, BULK_APPROVE_MAX)
    .map((id) => `trace_id:${id}`)
    .join(",");
}

/** An audit row's target for the merchant a console call named, before it is known to exist: cut to 64 characters. */
export const merchantTarget = (merchantId: string): string => `merchant:${merchantId.slice(0, 64)}`;

/** Where a replica-served read ran (ports/read-replica.ts), as its answer carries it. */
export const readSourceToProto = (s: ReadSource) => create(ReadSourceSchema, { replica: s.replica, lagMs: BigInt(s.lagMs) });
