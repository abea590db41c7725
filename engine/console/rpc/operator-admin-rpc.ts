/**
 * AdminService's operator calls (service tokens): create, disable and reset
 * Backoffice operators, recorded in the audit log as operator:<name> with the
 * caller's address (a refused call is audited by admin-audit.ts).
 */
import { create } from "@bufbuild/protobuf";
import {
  type AdminService,
  CreateOperatorResponseSchema,
  DisableOperatorResponseSchema,
  ResetOperatorResponseSchema,
} from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { createOperator, disableOperator, resetOperator, type OperatorResult } from "../app/operator-admin.ts";
import { enrolmentToProto, operatorToProto, roleFromProto } from "./console-mappers.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { CallContext, ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { clientAddressOf } from "../../rpc/peer-address.ts";

type Calls = Pick<ServiceImpl<typeof AdminService>, "createOperator" | "disableOperator" | "resetOperator">;

function actorOf(operator: string, ctx: CallContext | undefined) {
  checkText("operator", operator);
  if (operator.trim() === "") throw invalidArgument("operator", "is required: who makes the change");
  if ([...operator].length > 64) throw invalidArgument("operator", "must be at most 64 characters");
  return { name: `operator:${operator}`, clientAddress: clientAddressOf(ctx) };
}

function done(r: OperatorResult) {
  if (!r.ok) throw toRpcError(r.error);
  return r;
}

export function operatorAdmin(deps: BackofficeDeps): Calls {
  return {
    async createOperator(req, ctx) {
      const actor = actorOf(req.operator, ctx);
      const r = done(await createOperator(deps, actor, req.login, roleFromProto(req.role) ?? "", req.merchantIds));
      return create(CreateOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()), enrolment: enrolmentToProto(r.enrolment) });
    },
    async disableOperator(req, ctx) {
      const actor = actorOf(req.operator, ctx);
      checkText("login", req.login);
      const r = done(await disableOperator(deps, actor, req.login));
      return create(DisableOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()) });
    },
    async resetOperator(req, ctx) {
      const actor = actorOf(req.operator, ctx);
      checkText("login", req.login);
      const r = done(await resetOperator(deps, actor, req.login));
      return create(ResetOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()), enrolment: enrolmentToProto(r.enrolment) });
    },
  };
}
