/**
 * ConsoleSettingsService, the operators: list, create, change the role and scope
 * of, disable and reset them (app/operator-admin.ts), each refusal audited.
 * A scoped admin sees and manages only operators inside its own scope; one
 * outside it does not exist for it. No operator changes its own role or
 * scope, or disables itself. Changes giving payout rights are under dual
 * control (app/dual-control.ts): proposed by one admin, applied when another
 * makes the same change.
 */
import { create } from "@bufbuild/protobuf";
import {
  type ConsoleSettingsService,
  ConsoleSettingsServiceCreateOperatorResponseSchema,
  ConsoleSettingsServiceDisableOperatorResponseSchema,
  ConsoleSettingsServiceResetOperatorResponseSchema,
  ListOperatorsResponseSchema,
  UpdateOperatorResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import { createOperator, disableOperator, resetOperator, updateOperator, type OperatorResult } from "../app/operator-admin.ts";
import { domainError } from "../../shared/errors.ts";
import { callerOf, consoleCall, enrolmentToProto, operatorToProto, roleFromProto, stateFromProto } from "./console-mappers.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";

type OperatorCalls = Pick<
  ServiceImpl<typeof ConsoleSettingsService>,
  "listOperators" | "createOperator" | "updateOperator" | "disableOperator" | "resetOperator"
>;

/** Every admin of the console works under dual control. */
const DUAL_CONTROL = { dualControl: true } as const;

export function operatorSettings(deps: BackofficeDeps): OperatorCalls {
  /** Operators a scoped admin may touch: those whose scope lies inside its own. */
  /** Whether `merchantIds` (an operator's scope; empty: every merchant) reach past a scoped caller's own. */
  function beyondScope(who: SignedIn, merchantIds: readonly string[]): boolean {
    const mine = who.scope.merchantIds;
    return mine.length > 0 && (merchantIds.length === 0 || merchantIds.some((m) => !mine.includes(m)));
  }

  function checkManaged(who: SignedIn, merchantIds: readonly string[]) {
    if (beyondScope(who, merchantIds))
      throw invalidArgument("merchant_ids", "must name only merchants of the caller's own scope (a scoped admin cannot grant every merchant)");
  }

  const operatorResult = (r: OperatorResult) => {
    if (!r.ok) throw toRpcError(r.error);
    return r;
  };

  /** The operator `login`, if the caller may manage it; one outside a scoped admin's scope does not exist for it (the same NOT_FOUND). */
  async function managed(who: SignedIn, login: string) {
    checkText("login", login);
    const target = await deps.operators.get(login);
    if (!target || beyondScope(who, target.merchantIds))
      throw toRpcError(domainError("NOT_FOUND", `no operator with login ${JSON.stringify(login.slice(0, 64))}`));
    return target;
  }

  return {
    listOperators: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "operator.read");
        const state = stateFromProto(req.state);
        if (state === null) throw invalidArgument("state", "is not an OperatorState");
        const mine = who.scope.merchantIds;
        const all = await deps.operators.list(state);
        const visible = mine.length === 0 ? all : all.filter((o) => o.merchantIds.length > 0 && o.merchantIds.every((m) => mine.includes(m)));
        return create(ListOperatorsResponseSchema, { operators: visible.map((o) => operatorToProto(o, deps.now())) });
      }),

    createOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const login = req.create?.login ?? "";
        const who = await authorize(deps, caller, "operator.manage", `operator:${login.slice(0, 64)}`);
        return auditingRefusals(deps, who, caller, { action: "operator.create", target: `operator:${login.slice(0, 64)}` }, async () => {
          if (!req.create) throw invalidArgument("create", "is required");
          checkManaged(who, req.create.merchantIds);
          const r = operatorResult(
            await createOperator(
              deps,
              { name: who.scope.login, clientAddress: caller.clientAddress },
              req.create.login,
              roleFromProto(req.create.role) ?? "",
              req.create.merchantIds,
              DUAL_CONTROL,
            ),
          );
          return create(ConsoleSettingsServiceCreateOperatorResponseSchema, {
            operator: operatorToProto(r.operator, deps.now()),
            enrolment: enrolmentToProto(r.enrolment),
          });
        });
      }),

    updateOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.update", target }, async () => {
          await managed(who, req.login);
          checkManaged(who, req.merchantIds);
          if (req.login === who.scope.login) throw invalidArgument("login", "an operator cannot change its own role or scope");
          const r = operatorResult(
            await updateOperator(
              deps,
              { name: who.scope.login, clientAddress: caller.clientAddress },
              req.login,
              roleFromProto(req.role) ?? "",
              req.merchantIds,
              DUAL_CONTROL,
            ),
          );
          return create(UpdateOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()) });
        });
      }),

    disableOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.disable", target }, async () => {
          await managed(who, req.login);
          if (req.login === who.scope.login) throw invalidArgument("login", "an operator cannot disable itself");
          const r = operatorResult(await disableOperator(deps, { name: who.scope.login, clientAddress: caller.clientAddress }, req.login));
          return create(ConsoleSettingsServiceDisableOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()) });
        });
      }),

    resetOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.reset", target }, async () => {
          await managed(who, req.login);
          const r = operatorResult(await resetOperator(deps, { name: who.scope.login, clientAddress: caller.clientAddress }, req.login, DUAL_CONTROL));
          return create(ConsoleSettingsServiceResetOperatorResponseSchema, {
            operator: operatorToProto(r.operator, deps.now()),
            enrolment: enrolmentToProto(r.enrolment),
          });
        });
      }),
  };
}
