/**
 * /operators (list, create, role and scope, disable, reset) and /audit (the
 * log, its CSV export and the chain's check). The engine checks each call's
 * action against the role.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type Router from "@koa/router";
import type { Context } from "koa";
import type { AuditEntry } from "../../../gen/cashier/admin/v1/audit_pb.js";
import { AuditOutcome } from "../../../gen/cashier/admin/v1/audit_pb.js";
import type { Operator, OperatorRole } from "../../../gen/cashier/admin/v1/operator_pb.js";
import type { VerifyAuditChainResponse } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { consoleRefusal, formRefusal } from "../refusal.ts";
import { originOf, seeOther, sendPage } from "../request.ts";
import { AUDIT_FIELDS, type AuditFilter, auditPage, operatorsPage, ROLE_NAMES } from "../views/admin.ts";
import type { Notice } from "../views/model.ts";
import { csvLine, sendCsv } from "./csv.ts";
import { dayRange } from "./date-filter.ts";
import { consoleGet, consolePost, type PageDeps, refuseFilters, refusalPage, type SignedIn, signedIn } from "./pages.ts";

const LOGIN = /^[a-z0-9][a-z0-9._-]{2,63}$/;
const EXPORT_PAGES = 50;

const roleOf = (name: string | null) => Number(Object.entries(ROLE_NAMES).find(([, n]) => n === name)?.[0] ?? 0) as OperatorRole;
const merchantsOf = (value: string | null) =>
  (value ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);

function auditFilterOf(query: Record<string, unknown>): AuditFilter {
  const q = (k: string) => {
    const v = query[k];
    return String(Array.isArray(v) ? v[0] : (v ?? ""))
      .trim()
      .slice(0, 128);
  };
  return Object.fromEntries(AUDIT_FIELDS.map((k) => [k, q(k)])) as unknown as AuditFilter;
}

function auditRequest(f: AuditFilter) {
  return { actor: f.actor, action: f.action, merchantId: f.merchant_id, ...dayRange(f.from, f.to).window };
}

function auditCsv(e: AuditEntry): string {
  return csvLine([
    e.id,
    // With its milliseconds, as the page shows it and the audit hash covers it.
    e.time ? timestampDate(e.time).toISOString() : "",
    e.actor,
    e.action,
    e.outcome === AuditOutcome.FAILURE ? "failure" : "success",
    e.merchantId,
    e.target,
    e.clientAddress,
    e.beforeJson,
    e.afterJson,
    e.detail,
    e.hash,
  ]);
}

export function adminRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/operators", deps, async (ctx, s) => {
    const res = await deps.client.settings.listOperators({ context: s.context });
    const t = s.kit.tr.t;
    const login = String(ctx.query.login ?? "");
    const notices = { saved: "bo.op.saved", disabled: "bo.op.disabledNotice", proposed: "bo.op.proposedNotice", confirmed: "bo.op.confirmedNotice" } as const;
    const key = notices[String(ctx.query.notice ?? "") as keyof typeof notices];
    const notice = LOGIN.test(login) && key ? ({ kind: "success", text: t(key, { login }) } as const) : undefined;
    return s.render(
      "operators",
      t("bo.nav.operators"),
      operatorsPage(s.kit.tr, { operators: res.operators, canManage: s.operator.actions.has("operator.manage"), self: s.operator.login, csrf: s.csrf, notice }),
    );
  });

  /** The operators page with a new enrolment link (shown once), or with why a form was refused. */
  const operatorsAgain = async (
    ctx: Context,
    s: SignedIn,
    status: number,
    shown: { link?: { login: string; token: string; proposed?: boolean }; notice?: Notice },
  ) => {
    const res = await deps.client.settings.listOperators({ context: s.context });
    const link = shown.link && { login: shown.link.login, url: `${originOf(ctx, deps)}/enrol/${shown.link.token}`, proposed: shown.link.proposed };
    sendPage(
      ctx,
      s.kit,
      status,
      s.render(
        "operators",
        s.kit.tr.t("bo.nav.operators"),
        operatorsPage(s.kit.tr, { operators: res.operators, canManage: true, self: s.operator.login, csrf: s.csrf, link, notice: shown.notice }),
      ),
    );
  };
  /**
   * After a create or reset: the new link (shown once; a proposal's works once confirmed), or, when this call
   * confirmed another admin's proposal (no link: the proposer holds it), the page saying so.
   */
  const withLink = (ctx: Context, s: SignedIn, res: { operator?: Operator; enrolment?: { token: string } }, login: string) => {
    const who = res.operator?.login ?? login;
    if (!res.enrolment?.token) return seeOther(ctx, `/operators?notice=confirmed&login=${encodeURIComponent(who)}`);
    return operatorsAgain(ctx, s, 200, { link: { login: who, token: res.enrolment.token, proposed: res.operator?.pendingChange !== undefined } });
  };

  /**
   * An operator form's change; refused for its fields, or its state (a login taken, one's own role), the
   * operators page again with why above it (400, 409), rather than a page without the forms.
   */
  const operatorChange = async (ctx: Context, s: SignedIn, apply: () => Promise<void>) => {
    try {
      await apply();
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      await operatorsAgain(ctx, s, r.status, { notice: { kind: "error", text: r.text } });
    }
  };

  consolePost(router, "/operators", deps, async (ctx, s, form) => {
    const login = (form.get("login") ?? "").trim().toLowerCase();
    await operatorChange(ctx, s, async () => {
      const res = await deps.client.settings.createOperator({
        context: s.context,
        create: { login, role: roleOf(form.get("role")), merchantIds: merchantsOf(form.get("merchants")) },
      });
      await withLink(ctx, s, res, login);
    });
  });

  consolePost(router, "/operators/:login/role", deps, async (ctx, s, form) => {
    const login = ctx.params.login ?? "";
    await operatorChange(ctx, s, async () => {
      const res = await deps.client.settings.updateOperator({
        context: s.context,
        login,
        role: roleOf(form.get("role")),
        merchantIds: merchantsOf(form.get("merchants")),
      });
      seeOther(ctx, `/operators?notice=${res.operator?.pendingChange ? "proposed" : "saved"}&login=${encodeURIComponent(login)}`);
    });
  });

  consolePost(router, "/operators/:login/disable", deps, async (ctx, s) => {
    const login = ctx.params.login ?? "";
    await operatorChange(ctx, s, async () => {
      await deps.client.settings.disableOperator({ context: s.context, login });
      seeOther(ctx, `/operators?notice=disabled&login=${encodeURIComponent(login)}`);
    });
  });

  consolePost(router, "/operators/:login/reset", deps, async (ctx, s) => {
    const login = ctx.params.login ?? "";
    await operatorChange(ctx, s, async () => {
      const res = await deps.client.settings.resetOperator({ context: s.context, login });
      await withLink(ctx, s, res, login);
    });
  });

  consoleGet(router, "/audit", deps, async (ctx, s) => {
    const filter = auditFilterOf(ctx.query);
    const pageToken = String(ctx.query.page_token ?? "").slice(0, 512);
    const bad = dayRange(filter.from, filter.to).bad;
    if (bad.length > 0) {
      const notice = { kind: "error" as const, text: s.kit.tr.t("bo.search.badFilters", { fields: bad.join(", ") }) };
      const page = auditPage(s.kit.tr, { filter, entries: [], nextPageToken: "", paged: false, canExport: false, notice });
      return s.render("audit", s.kit.tr.t("bo.nav.audit"), page);
    }
    const res = await deps.client.settings.listAuditEntries({ context: s.context, ...auditRequest(filter), pageSize: 50, pageToken });
    let verified: VerifyAuditChainResponse | undefined;
    if (ctx.query.verify === "1") verified = await deps.client.settings.verifyAuditChain({ context: s.context });
    return s.render(
      "audit",
      s.kit.tr.t("bo.nav.audit"),
      auditPage(s.kit.tr, {
        filter,
        entries: res.entries,
        nextPageToken: res.nextPageToken,
        paged: pageToken !== "",
        canExport: s.operator.actions.has("audit.export"),
        verified,
      }),
    );
  });

  router.get("/audit.csv", async (ctx) => {
    const s = await signedIn(ctx, deps);
    if (!s) return;
    const filter = auditFilterOf(ctx.query);
    const bad = dayRange(filter.from, filter.to).bad;
    if (bad.length > 0) return refuseFilters(ctx, s, bad);
    try {
      await sendCsv(ctx, {
        name: "audit",
        head: csvLine(["id", "time", "actor", "action", "outcome", "merchant_id", "target", "client_address", "before", "after", "detail", "hash"]),
        maxPages: EXPORT_PAGES,
        page: async (pageToken) => {
          const res = await deps.client.settings.listAuditEntries({ context: s.context, ...auditRequest(filter), pageSize: 1000, pageToken, export: true });
          return { lines: res.entries.map(auditCsv), next: res.nextPageToken };
        },
        cutNote: (rows) => `# cut after ${rows} entries: narrow the filter to export the rest`,
      });
    } catch (err) {
      return refusalPage(ctx, s.kit, consoleRefusal(err), deps.log, err, s.operator, s.csrf);
    }
  });
}
