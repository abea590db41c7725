/**
 * AdminService as served on gRPC: every state-changing call appends an audit
 * row in the same database transaction as its change, through the mechanisms
 * the Backoffice console uses (decidePayout's and redelivery's `alongside`,
 * the merchant store's `within` via app/audited-change.ts, the operator use
 * cases' own rows); a refused call is audited as a failure. The actor is
 * `operator:<name>` where the call names an operator (payout decisions,
 * operators), else SERVICE_ACTOR; the address is the gRPC peer's. Secrets
 * (a merchant's, an API key) are never in a row: before/after values are the
 * same secret-free views the calls return. Read-only calls are not audited.
 * The console reuses adminService() unwrapped and audits those calls itself.
 */
import { maskCardNumbers } from "../../shared/card.ts";
import { create, toJson } from "@bufbuild/protobuf";
import type { Tx } from "../ports/transactions.ts";
import {
  type AdminService,
  ApprovePayoutResponseSchema,
  CancelPayoutResponseSchema,
  GetMerchantRequestSchema,
  ListProcessorAccountsRequestSchema,
  RejectPayoutResponseSchema,
} from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import { type Merchant, MerchantSchema } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { type ProcessorAccount, ProcessorAccountSchema } from "../../../gen/cashier/admin/v1/processor_account_pb.js";
import { auditedChange } from "../app/audited-change.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import { payoutFace } from "../app/console-payouts.ts";
import { decidePayout, type PayoutDecision } from "../../payments/index.ts";
import type { ProcessDeps } from "../../payments/index.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { AuditRecord } from "../ports/audit.ts";
import { adminService, redeliverCallback } from "./admin-service.ts";
import { checkTraceId, toRpcError } from "../../rpc/errors.ts";
import { type CallContext, RpcError, type ServiceImpl } from "../../rpc/grpc-adapter.ts";
import type { MerchantAdminDeps } from "./merchant-admin.ts";
import { clientAddressOf } from "../../rpc/peer-address.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";

/** The actor of an AdminService call that names no operator: whoever holds a service token (no login has a colon, so no operator is ever taken for it). */
export const SERVICE_ACTOR = "service:admin";

type Deps = ProcessDeps & MerchantAdminDeps & BackofficeDeps;
type Outcome = "success" | "failure";

/** `operator:<name>` when the call names a usable operator, else the service. */
export const operatorActor = (operator: string) => (operator.trim() !== "" && !CONTROL_CHARACTERS.test(operator) ? `operator:${operator}` : SERVICE_ACTOR);

const messageOf = (err: unknown) => (err instanceof Error ? err.message : "refused");
const merchantJson = (m: Merchant | undefined) => (m ? canonicalJson(toJson(MerchantSchema, m)) : "");
const accountsJson = (list: ProcessorAccount[]) => canonicalJson(list.map((a) => toJson(ProcessorAccountSchema, a)));

export function auditedAdminService(deps: Deps): ServiceImpl<typeof AdminService> {
  const admin = adminService(deps);

  /** Runs `fn`; a refusal (an RpcError) is audited as a failure, then answered. */
  async function auditRefusal<T>(row: (detail: string) => AuditRecord, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof RpcError) await deps.audit.append(row(messageOf(err)));
      throw err;
    }
  }

  /** A merchant's settings change: its before value read first, then the change and its row in one transaction. */
  async function settingsChange<T>(
    ctx: CallContext,
    action: string,
    merchantId: string,
    beforeOf: () => Promise<string>,
    apply: () => Promise<T>,
    afterOf: (r: T) => string,
  ): Promise<T> {
    const base = { actor: SERVICE_ACTOR, action, merchantId, target: `merchant:${merchantId}`, clientAddress: clientAddressOf(ctx) };
    const before = await auditRefusal((detail) => ({ ...base, outcome: "failure", detail }), beforeOf);
    const row = (outcome: Outcome, afterJson: string, detail = "") => ({ ...base, outcome, beforeJson: before, afterJson, detail });
    return auditedChange(deps, merchantId, row, apply, afterOf);
  }

  const merchantBefore = (merchantId: string, ctx: CallContext) => async () =>
    merchantJson((await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId }), ctx)).merchant);

  /** A change to an existing merchant whose answer carries the merchant: the merchant before and after. */
  const merchantChange = <T extends { merchant?: Merchant }>(ctx: CallContext, action: string, merchantId: string, apply: () => Promise<T>) =>
    settingsChange(ctx, action, merchantId, merchantBefore(merchantId, ctx), apply, (r) => merchantJson(r.merchant));

  /** A payout decision; its row is written in the decision's own transaction (the step to A, J or C). */
  async function decide(req: { traceId: number; operator: string }, decision: PayoutDecision, typed: string, ctx: CallContext) {
    // Kept in the audit row's after value and the payout's details: no card number (decide-payout masks it there too).
    const reason = maskCardNumbers(typed);
    const base = { actor: operatorActor(req.operator), action: `payout.${decision}`, target: `trace_id:${req.traceId}`, clientAddress: clientAddressOf(ctx) };
    await auditRefusal(
      (detail) => ({ ...base, outcome: "failure", detail }),
      async () => checkTraceId(req.traceId),
    );
    const found = await deps.orders.get(req.traceId);
    const before = found?.type === "payout" ? found : undefined;
    const row = (outcome: Outcome, afterJson: string, detail = "") => ({
      ...base,
      outcome,
      merchantId: before?.merchantId ?? "",
      beforeJson: before ? canonicalJson(payoutFace(before)) : "",
      afterJson,
      detail,
    });
    let decided = false;
    const result = await decidePayout(deps, req.traceId, decision, req.operator, reason, "operator", async (tx, after) => {
      await deps.audit.append(row("success", canonicalJson({ ...payoutFace(after), reason })), tx);
      decided = true;
    });
    if (!result.ok) {
      // Refused, or lost to another change before the decision was written: audited as a failure on its own.
      if (!decided) await deps.audit.append(row("failure", "", result.error.message));
      throw toRpcError(result.error);
    }
    return attemptToProto(result.attempt);
  }

  const operatorCall = <T>(ctx: CallContext, action: string, operator: string, login: string, fn: () => Promise<T>) =>
    auditRefusal(
      (detail) => ({ actor: operatorActor(operator), action, outcome: "failure", target: `operator:${login}`, clientAddress: clientAddressOf(ctx), detail }),
      fn,
    );

  return {
    ...admin,

    async approvePayout(req, ctx) {
      return create(ApprovePayoutResponseSchema, { transaction: await decide(req, "approve", "", ctx) });
    },
    async rejectPayout(req, ctx) {
      return create(RejectPayoutResponseSchema, { transaction: await decide(req, "reject", req.reason, ctx) });
    },
    async cancelPayout(req, ctx) {
      return create(CancelPayoutResponseSchema, { transaction: await decide(req, "cancel", req.reason, ctx) });
    },

    async redeliverCallback(req, ctx) {
      const id = req.id > 0n && req.id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(req.id) : 0;
      const before = id ? await deps.callbacks.get(id) : undefined;
      const row = (outcome: Outcome, detail = "") => ({
        actor: SERVICE_ACTOR,
        action: "callback.redeliver",
        outcome,
        merchantId: before?.merchantId ?? "",
        target: `callback:${req.id}`,
        clientAddress: clientAddressOf(ctx),
        beforeJson: before ? canonicalJson({ state: before.state, attempts: before.attemptCount, trace_id: before.traceId }) : "",
        detail,
      });
      let audited = false;
      try {
        // The callback made due and its audit row: one transaction.
        return await redeliverCallback(deps, req.id, async (tx: Tx) => {
          await deps.audit.append(row("success"), tx);
          audited = true;
        });
      } catch (err) {
        if (!audited && err instanceof RpcError) await deps.audit.append(row("failure", messageOf(err)));
        throw err;
      }
    },

    async createMerchant(req, ctx) {
      const id = req.merchant?.merchantId ?? "";
      return settingsChange(
        ctx,
        "merchant.create",
        id,
        async () => "",
        () => admin.createMerchant(req, ctx),
        (r) => merchantJson(r.merchant),
      );
    },
    async updateMerchant(req, ctx) {
      return merchantChange(ctx, "merchant.update", req.merchant?.merchantId ?? "", () => admin.updateMerchant(req, ctx));
    },
    async rotateMerchantSecret(req, ctx) {
      return merchantChange(ctx, "merchant.rotate_secret", req.merchantId, () => admin.rotateMerchantSecret(req, ctx));
    },
    async createFrontend(req, ctx) {
      return merchantChange(ctx, "frontend.create", req.merchantId, () => admin.createFrontend(req, ctx));
    },
    async updateFrontend(req, ctx) {
      return merchantChange(ctx, "frontend.update", req.merchantId, () => admin.updateFrontend(req, ctx));
    },
    async setProcessorAccount(req, ctx) {
      return settingsChange(
        ctx,
        "processor_account.set",
        req.merchantId,
        async () => accountsJson((await admin.listProcessorAccounts(create(ListProcessorAccountsRequestSchema, { merchantId: req.merchantId }), ctx)).accounts),
        () => admin.setProcessorAccount(req, ctx),
        (r) => accountsJson(r.accounts),
      );
    },

    async createOperator(req, ctx) {
      return operatorCall(ctx, "operator.create", req.operator, req.login, () => admin.createOperator(req, ctx));
    },
    async disableOperator(req, ctx) {
      return operatorCall(ctx, "operator.disable", req.operator, req.login, () => admin.disableOperator(req, ctx));
    },
    async resetOperator(req, ctx) {
      return operatorCall(ctx, "operator.reset", req.operator, req.login, () => admin.resetOperator(req, ctx));
    },
  };
}
