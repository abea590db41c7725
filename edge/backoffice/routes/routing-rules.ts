/**
 * /merchants/:id/routing: the merchant's cascade order, its routing rules and the preview. Admins change the
 * cascade (UpdateMerchant's `processors`), and the rules one at a time (add, save, move up or down, delete): each
 * form is turned into the whole new list and sent with the etag of the page it came from, so that a change someone
 * else made meanwhile is refused, not overwritten. The preview is a GET: it changes nothing, and anyone who may read
 * the merchant may ask it; the engine routes it. Refusals show the page again, the rule's form as typed with the
 * engine's words beside the field it names.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import type { ConsoleKey } from "../i18n.ts";
import { type ConsoleRefusal, consoleRefusal, formRefusal } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import type { Notice } from "../views/model.ts";
import { type PreviewView, routingPage, type RuleFormValues } from "../views/routing-rules.ts";
import { consoleGet, consolePost, type PageDeps, refusalPage, type SignedIn } from "./pages.ts";
import { type RuleInit, ruleErrors, ruleField, ruleFormValues, ruleOf } from "./routing-form.ts";

const MERCHANT = /^[A-Za-z0-9._:-]{1,64}$/;
const NOTICES: Record<string, ConsoleKey> = { saved: "bo.routing.saved", cascade: "bo.merchant.saved" };
const PREVIEW_FIELDS = ["currency", "amount", "country", "card_bin", "card_brand"];

const query = (ctx: Context, key: string) => (typeof ctx.query[key] === "string" ? (ctx.query[key] as string).trim().slice(0, 64) : "");

interface Retry {
  place: number | "new";
  values: RuleFormValues;
  errors: readonly FieldError[];
}

export function routingRoutes(router: Router, deps: PageDeps): void {
  /** The routing page as it stands, the preview asked when the query holds one. */
  const drawRouting = async (ctx: Context, s: SignedIn, merchantId: string, notice?: Notice, retry?: Retry) => {
    const m = await deps.client.settings.getMerchant({ context: s.context, merchantId });
    const preview: PreviewView = {
      type: query(ctx, "type") === "payout" ? "payout" : "sale",
      currency: query(ctx, "currency").toUpperCase(),
      amount: query(ctx, "amount"),
      country: query(ctx, "country").toUpperCase(),
      bin: query(ctx, "bin"),
      brand: query(ctx, "brand"),
      errors: [],
    };
    let previewNotice: Notice | undefined;
    if (ctx.method === "GET" && (preview.currency || preview.amount)) {
      try {
        const a = await deps.client.settings.previewRouting({
          context: s.context,
          merchantId,
          transactionType: preview.type === "payout" ? TransactionType.PAYOUT : TransactionType.SALE,
          currency: preview.currency,
          // What is not a whole number goes as 0, which the engine refuses naming the amount.
          amount: /^\d{1,15}$/.test(preview.amount) ? BigInt(preview.amount) : 0n,
          country: preview.country,
          cardBin: preview.bin,
          cardBrand: preview.brand,
        });
        preview.answer = { ruleMatched: a.ruleMatched, rule: a.rule, cascade: a.cascade, split: a.split };
      } catch (err) {
        const r = consoleRefusal(err);
        if (r.kind !== "invalid") throw err;
        preview.errors = r.violations.filter((v) => PREVIEW_FIELDS.includes(v.field)).map((v) => ({ field: `preview-${v.field}`, message: v.description }));
        previewNotice = { kind: "error", text: r.violations.map((v) => `${v.field}: ${v.description}`).join("; ") };
      }
    }
    return s.render(
      "merchants",
      s.kit.tr.t("bo.routing.title", { merchant: merchantId }),
      routingPage(s.kit.tr, {
        merchantId,
        processors: m.merchant?.processors ?? [],
        accounts: m.accounts.map((a) => a.processor),
        rules: m.routingRules,
        etag: m.routingRulesEtag,
        cardBrands: m.cardBrands,
        canUpdate: s.operator.actions.has("merchant.update"),
        csrf: s.csrf,
        notice: notice ?? previewNotice,
        retry,
        preview,
      }),
    );
  };

  const back = (merchantId: string, notice: string, anchor: string) => `/merchants/${encodeURIComponent(merchantId)}/routing?notice=${notice}#${anchor}`;

  consoleGet(router, "/merchants/:id/routing", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    const key = namedIn(NOTICES, ctx.query.notice);
    return drawRouting(ctx, s, merchantId, key ? { kind: "success", text: s.kit.tr.t(key) } : undefined);
  });

  consolePost(router, "/merchants/:id/routing/processors", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    const processors = (form.get("processors") ?? "")
      .split(/[\s,;]+/)
      .map((p) => p.trim())
      .filter(Boolean);
    try {
      await deps.client.settings.updateMerchant({
        context: s.context,
        update: { merchant: { merchantId, processors }, updateMask: { paths: ["processors"] } },
      });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      return sendPage(ctx, s.kit, r.status, await drawRouting(ctx, s, merchantId, { kind: "error", text: r.text }));
    }
    seeOther(ctx, back(merchantId, "cascade", "cascade"));
  });

  /** The rule at `place` (1-based; "new": appended) as the form has it: the whole list sent, with the page's etag. */
  const changeRules = async (
    ctx: Context,
    s: SignedIn,
    form: URLSearchParams,
    edit: (rules: RuleInit[]) => RuleInit[] | undefined,
    retry?: { place: number | "new"; values: RuleFormValues },
  ) => {
    const merchantId = ctx.params.id ?? "";
    const m = await deps.client.settings.getMerchant({ context: s.context, merchantId });
    const rules = edit([...m.routingRules]);
    const stale = (text: string) => drawRouting(ctx, s, merchantId, { kind: "error", text });
    // A rule no longer at the place the page showed: the list changed since (the engine's etag would say so too).
    if (!rules) {
      // The engine's role check is the one that counts; a forged form of a role that may not change rules gets its answer.
      if (!s.operator.actions.has("merchant.update"))
        return refusalPage(ctx, s.kit, { kind: "denied", action: "merchant.update" }, deps.log, undefined, s.operator, s.csrf);
      return sendPage(ctx, s.kit, 409, await stale(s.kit.tr.t("bo.routing.changed")));
    }
    try {
      await deps.client.settings.setRoutingRules({ context: s.context, merchantId, rules, etag: form.get("etag") ?? "" });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      const refusal = consoleRefusal(err);
      const index = retry ? (retry.place === "new" ? rules.length - 1 : retry.place - 1) : -1;
      const prefix = retry?.place === "new" ? "rule-new" : `rule-${index + 1}`;
      const again = retry ? { ...retry, errors: ruleErrors(refusal, index, prefix) } : undefined;
      return sendPage(ctx, s.kit, r.status, await drawRouting(ctx, s, merchantId, { kind: "error", text: faultText(s, refusal, r.text) }, again));
    }
    seeOther(ctx, back(merchantId, "saved", "rules"));
  };

  /** A rule's refusal in words: "Rule 2, when.currency[0]: must be an ISO 4217 code". */
  const faultText = (s: SignedIn, r: ConsoleRefusal, text: string) =>
    r.kind === "invalid" && r.violations.length
      ? r.violations
          .map((v) => {
            const at = ruleField(v.field);
            return at
              ? s.kit.tr.t("bo.routing.fault", { n: at.index + 1, field: v.field.replace(/^rules\[\d+\]\.?/, "") || "rule", problem: v.description })
              : `${v.field}: ${v.description}`;
          })
          .join("; ")
      : text;

  /** The rule number in the path, or 0. */
  const placeOf = (ctx: Context) => (/^\d{1,3}$/.test(ctx.params.n ?? "") ? Number(ctx.params.n) : 0);

  consolePost(router, "/merchants/:id/routing/rules", deps, async (ctx, s, form) => {
    const values = ruleFormValues(form);
    await changeRules(ctx, s, form, (rules) => [...rules, ruleOf(values)], { place: "new", values });
  });

  consolePost(router, "/merchants/:id/routing/rules/:n", deps, async (ctx, s, form) => {
    const n = placeOf(ctx);
    const values = ruleFormValues(form);
    await changeRules(ctx, s, form, (rules) => (n >= 1 && n <= rules.length ? rules.map((r, i) => (i === n - 1 ? ruleOf(values) : r)) : undefined), {
      place: n,
      values,
    });
  });

  consolePost(router, "/merchants/:id/routing/rules/:n/move", deps, async (ctx, s, form) => {
    const n = placeOf(ctx);
    const to = form.get("direction") === "up" ? n - 1 : n + 1;
    await changeRules(ctx, s, form, (rules) => {
      if (n < 1 || n > rules.length || to < 1 || to > rules.length) return undefined;
      const out = [...rules];
      [out[n - 1], out[to - 1]] = [out[to - 1], out[n - 1]];
      return out;
    });
  });

  consolePost(router, "/merchants/:id/routing/rules/:n/delete", deps, async (ctx, s, form) => {
    const n = placeOf(ctx);
    await changeRules(ctx, s, form, (rules) => (n >= 1 && n <= rules.length ? rules.filter((_, i) => i !== n - 1) : undefined));
  });
}
