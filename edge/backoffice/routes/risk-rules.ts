/**
 * /merchants/:id/risk: a merchant's risk rules (ConsoleRiskService). Anyone who may read the merchant sees the
 * list; an admin's one form saves a rule (id 0 adds) or, by its other button, asks the engine's dry run for the
 * rule as typed, whose answer is drawn above the form with what was typed kept; a delete button per rule. The
 * engine checks the role (a forged form of another role gets the refusal page naming risk.edit), the fields (drawn
 * beside the input the engine named, `spec.window_seconds` at risk-windowSeconds) and audits each change.
 */
import type Router from "@koa/router";
import type { FieldError } from "../../pages/kit/components.ts";
import type { ConsoleKey } from "../i18n.ts";
import { consoleRefusal, formRefusal } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import type { Notice } from "../views/model.ts";
import { RISK_FIELDS, type RiskFormValues, riskPage, riskValues } from "../views/risk-rules.ts";
import { consoleGet, consolePost, type PageDeps, type SignedIn } from "./pages.ts";

const MERCHANT = /^[A-Za-z0-9._:-]{1,64}$/;
const NOTICES: Record<string, ConsoleKey> = { saved: "bo.risk.saved", deleted: "bo.risk.deleted" };

/** The form's values as typed, each trimmed and cut to a sane length. */
function formValues(form: URLSearchParams): RiskFormValues {
  const get = (name: string, max = 200) => (form.get(name) ?? "").trim().slice(0, max);
  const out = {} as Record<keyof RiskFormValues, string>;
  for (const [key, name] of RISK_FIELDS) out[key] = get(name, key === "binCountries" ? 6000 : 200);
  return out;
}

/** A whole number as the engine takes it; anything else as -1, which the engine refuses naming the field. */
const whole = (s: string) => (s === "" ? 0n : /^\d{1,15}$/.test(s) ? BigInt(s) : -1n);

function specOf(v: RiskFormValues) {
  return {
    name: v.name,
    kind: v.kind,
    transactionType: v.transactionType,
    key: v.key,
    windowSeconds: whole(v.windowSeconds),
    maxCount: whole(v.maxCount),
    maxAmountMinor: whole(v.maxAmountMinor),
    currency: v.currency.toUpperCase(),
    period: v.period,
    binCountries: v.binCountries,
  };
}

/** The engine's violations (`spec.window_seconds`) at the inputs' ids (`risk-windowSeconds`). */
function errorsOf(err: unknown): FieldError[] {
  const r = consoleRefusal(err);
  if (r.kind !== "invalid") return [];
  return r.violations.flatMap((v) => {
    const at = RISK_FIELDS.find(([, name]) => `spec.${name}` === v.field);
    return at ? [{ field: `risk-${at[0]}`, message: v.description }] : [];
  });
}

export function riskRoutes(router: Router, deps: PageDeps): void {
  const draw = async (
    s: SignedIn,
    merchantId: string,
    form: { id: bigint; values?: RiskFormValues; errors?: FieldError[] },
    notice?: Notice,
    dryRun?: { refused: number; examined: number; since: string },
  ) => {
    const { rules } = await deps.client.risk.listRiskRules({ context: s.context, merchantId });
    const editing = form.id ? rules.find((r) => r.id === form.id) : undefined;
    return s.render(
      "merchants",
      s.kit.tr.t("bo.risk.title", { merchant: merchantId }),
      riskPage(s.kit.tr, {
        merchantId,
        rules,
        canEdit: s.operator.actions.has("risk.edit"),
        csrf: s.csrf,
        notice,
        form: { id: editing ? form.id : 0n, values: form.values ?? riskValues(editing?.spec), errors: form.errors ?? [] },
        dryRun,
      }),
    );
  };

  consoleGet(router, "/merchants/:id/risk", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    const key = namedIn(NOTICES, ctx.query.notice);
    const edit = typeof ctx.query.edit === "string" && /^\d{1,15}$/.test(ctx.query.edit) ? BigInt(ctx.query.edit) : 0n;
    return draw(s, merchantId, { id: edit }, key ? { kind: "success", text: s.kit.tr.t(key) } : undefined);
  });

  consolePost(router, "/merchants/:id/risk", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return;
    const values = formValues(form);
    const id = /^\d{1,15}$/.test(form.get("id") ?? "") ? BigInt(form.get("id") ?? "0") : 0n;
    const spec = specOf(values);
    try {
      if (form.get("do") === "dry-run") {
        const r = await deps.client.risk.dryRunRiskRule({ context: s.context, merchantId, spec });
        const since = r.since ? new Date(Number(r.since.seconds) * 1000).toISOString().slice(0, 16).replace("T", " ") : "";
        return sendPage(ctx, s.kit, 200, await draw(s, merchantId, { id, values }, undefined, { refused: r.refusedCount, examined: r.examinedCount, since }));
      }
      await deps.client.risk.saveRiskRule({ context: s.context, merchantId, id, spec });
    } catch (err) {
      const r = formRefusal(err);
      // A role, a scope or an outage: consolePost's refusal page.
      if (!r) throw err;
      return sendPage(ctx, s.kit, r.status, await draw(s, merchantId, { id, values, errors: errorsOf(err) }, { kind: "error", text: r.text }));
    }
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}/risk?notice=saved#risk-table`);
  });

  consolePost(router, "/merchants/:id/risk/:rule/delete", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    const rule = ctx.params.rule ?? "";
    if (!MERCHANT.test(merchantId) || !/^\d{1,15}$/.test(rule)) return;
    await deps.client.risk.deleteRiskRule({ context: s.context, merchantId, id: BigInt(rule) });
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}/risk?notice=deleted#risk-table`);
  });
}
