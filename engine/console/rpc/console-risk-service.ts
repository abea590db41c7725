/**
 * cashier.admin.v1.ConsoleRiskService: a merchant's risk rules in the console
 * (docs/backoffice-operations.md, Risk rules). Listing is merchant.read; a
 * save, a deletion and a dry run are risk.edit (admins). A save or deletion
 * commits with its audit row, refusals are audited too, and this engine's
 * cached rules of the merchant are forgotten at once (another engine reads the
 * change within its cache's TTL). The dry run tries the rule as written on the
 * merchant's last 7 days of stored orders (payments/domain/risk-dry-run.ts).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleRiskService,
  DeleteRiskRuleResponseSchema,
  DryRunRiskRuleResponseSchema,
  ListRiskRulesResponseSchema,
  type RiskRule as RiskRuleMessage,
  RiskRuleSchema,
  type RiskRuleSpec,
  RiskRuleSpecSchema,
  SaveRiskRuleResponseSchema,
} from "../../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { dryRun, fieldsOfRule, LIMIT_PERIODS, MAX_RISK_RULES, parseRiskRule, type ProcessDeps, type RiskRule } from "../../payments/index.ts";
import { domainError, describeViolations } from "../../shared/errors.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import type { RiskRuleRecord, RiskRuleRecords } from "../ports/risk-rules.ts";
import { invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";

/** What the risk calls need: the console's ports, the payments' (the merchants, the rules' cache), the rules' store. */
export type ConsoleRiskDeps = ProcessDeps & BackofficeDeps & { riskRules: RiskRuleRecords };

/** At most this many rules per merchant, the merchants file's included: the sale path evaluates them all. */
export const MAX_RULES = MAX_RISK_RULES;
/** A dry run's days, and the most orders it loads (the newest kept). */
const DRY_RUN_DAYS = 7;
const DRY_RUN_ORDERS = 200_000;

function specToFields(spec: RiskRuleSpec | undefined) {
  const n = (v: bigint | undefined) =>
    v === undefined ? 0 : v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER) ? Number.NaN : Number(v);
  return {
    name: spec?.name ?? "",
    kind: spec?.kind ?? "",
    transactionType: spec?.transactionType ?? "",
    key: spec?.key ?? "",
    windowSeconds: n(spec?.windowSeconds),
    maxCount: n(spec?.maxCount),
    maxAmountMinor: n(spec?.maxAmountMinor),
    currency: spec?.currency ?? "",
    period: spec?.period ?? "",
    binCountries: spec?.binCountries ?? "",
  };
}

function specOf(rule: RiskRule): RiskRuleSpec {
  const f = fieldsOfRule(rule);
  return create(RiskRuleSpecSchema, {
    ...f,
    windowSeconds: BigInt(f.windowSeconds),
    maxCount: BigInt(f.maxCount),
    maxAmountMinor: BigInt(f.maxAmountMinor),
  });
}

function ruleToProto(r: RiskRuleRecord): RiskRuleMessage {
  return create(RiskRuleSchema, {
    id: BigInt(r.rule.id),
    merchantId: r.merchantId,
    spec: specOf(r.rule),
    updatedBy: r.updatedBy,
    updateTime: timestampFromDate(r.updatedAt),
    fromMerchantsFile: r.source === "file",
  });
}

/** The rule in the audit log: as written, with its id. */
const ruleFace = (rule: RiskRule) => canonicalJson({ id: rule.id, ...fieldsOfRule(rule) });

/** The rule a request writes, every field at fault named (the spec's field names). */
function checkedRule(id: number, spec: RiskRuleSpec | undefined): RiskRule {
  const parsed = parseRiskRule(id, specToFields(spec));
  if (!parsed.ok) {
    const violations = parsed.violations.map((v) => ({ ...v, field: `spec.${v.field}` }));
    throw toRpcError(domainError("INVALID_FIELDS", describeViolations(violations), violations));
  }
  return parsed.rule;
}

/** A rule of the merchants file: the file owns it, and the next start would put it back. */
const fileOwned = (id: number) =>
  toRpcError(domainError("INVALID_STATE", `risk rule ${id} comes from the merchants file (CASHIER_MERCHANTS_FILE): change or remove it there, then restart`));

function ruleId(id: bigint, allowZero: boolean): number {
  if ((allowZero && id === 0n) || (id > 0n && id <= BigInt(Number.MAX_SAFE_INTEGER))) return Number(id);
  throw invalidArgument("id", allowZero ? "must be 0 for a new rule or a rule's id" : "must be a rule's id");
}

export function consoleRiskService(deps: ConsoleRiskDeps): ServiceImpl<typeof ConsoleRiskService> {
  /** The merchant a call names: given, in scope and existing (else NOT_FOUND, alike). */
  async function merchantOf(who: SignedIn, merchantId: string): Promise<string> {
    if (merchantId === "") throw invalidArgument("merchant_id", "is required");
    merchantsFor(who, merchantId);
    if (!(await deps.merchants.get(merchantId))) throw notFound(`no merchant ${merchantId}`);
    return merchantId;
  }

  const audited = <T>(who: SignedIn, caller: ConsoleCaller, target: string, fn: () => Promise<T>) =>
    auditingRefusals(deps, who, caller, { action: "risk.edit", target }, fn);

  return {
    listRiskRules: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const who = await authorize(deps, caller, "merchant.read", `merchant:${req.merchantId.slice(0, 64)}`);
        const merchantId = await merchantOf(who, req.merchantId);
        const rules = await deps.riskRules.list(merchantId);
        return create(ListRiskRulesResponseSchema, { rules: rules.map(ruleToProto) });
      }),

    saveRiskRule: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `merchant:${req.merchantId.slice(0, 64)}`;
        const who = await authorize(deps, caller, "risk.edit", target);
        const saved = await audited(who, caller, target, async () => {
          const merchantId = await merchantOf(who, req.merchantId);
          const id = ruleId(req.id, true);
          const rule = checkedRule(id, req.spec);
          const by = `backoffice:${who.scope.login}`;
          const record = await deps.operators.transaction(async (tx) => {
            const before = id === 0 ? undefined : await deps.riskRules.get(merchantId, id, tx);
            if (id !== 0 && !before) throw notFound(`no risk rule ${id} of merchant ${merchantId}`);
            if (before?.source === "file") throw fileOwned(id);
            const after = id === 0 ? await deps.riskRules.add(merchantId, rule, by, MAX_RULES, tx) : await deps.riskRules.replace(merchantId, rule, by, tx);
            if (!after)
              throw toRpcError(
                domainError("INVALID_STATE", `merchant ${merchantId} has ${MAX_RULES} risk rules already, the most it may have; delete one first`),
              );
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "risk.edit",
                outcome: "success",
                merchantId,
                target: `risk_rule:${after.rule.id}`,
                clientAddress: caller.clientAddress,
                ...(before ? { beforeJson: ruleFace(before.rule) } : {}),
                afterJson: ruleFace(after.rule),
              },
              tx,
            );
            return after;
          });
          deps.risk.invalidate(merchantId);
          return record;
        });
        return create(SaveRiskRuleResponseSchema, { rule: ruleToProto(saved) });
      }),

    deleteRiskRule: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `risk_rule:${String(req.id).slice(0, 20)}`;
        const who = await authorize(deps, caller, "risk.edit", target);
        await audited(who, caller, target, async () => {
          const merchantId = await merchantOf(who, req.merchantId);
          const id = ruleId(req.id, false);
          await deps.operators.transaction(async (tx) => {
            const before = await deps.riskRules.get(merchantId, id, tx);
            if (before?.source === "file") throw fileOwned(id);
            if (!before || !(await deps.riskRules.delete(merchantId, id, tx))) throw notFound(`no risk rule ${id} of merchant ${merchantId}`);
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "risk.edit",
                outcome: "success",
                merchantId,
                target: `risk_rule:${id}`,
                clientAddress: caller.clientAddress,
                beforeJson: ruleFace(before.rule),
              },
              tx,
            );
          });
          deps.risk.invalidate(merchantId);
        });
        return create(DeleteRiskRuleResponseSchema, {});
      }),

    dryRunRiskRule: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const who = await authorize(deps, caller, "risk.edit", `merchant:${req.merchantId.slice(0, 64)}`);
        const merchantId = await merchantOf(who, req.merchantId);
        const rule = checkedRule(0, req.spec);
        const now = deps.now();
        const since = new Date(now.getTime() - DRY_RUN_DAYS * 86_400_000);
        // The rule's own window before the first day, so the first day's orders are counted as the sale path would.
        const lookback = rule.kind === "velocity" ? rule.windowSeconds : rule.kind === "deposit_limit" ? LIMIT_PERIODS[rule.period] : 0;
        const orders = await deps.riskRules.ordersSince(merchantId, new Date(since.getTime() - lookback * 1000), DRY_RUN_ORDERS);
        const result = dryRun(rule, orders, since);
        return create(DryRunRiskRuleResponseSchema, { refusedCount: result.refused, examinedCount: result.examined, since: timestampFromDate(since) });
      }),
  };
}
