/**
 * /merchants/:id/frontends/:name: one frontend's page (its amounts previewed as a customer sees them) and, for an
 * admin, the form that sets its base currency, currencies, preset deposit amounts and limits per currency. The form
 * is decoded here (amounts as money, exactly to minor units) and sent to ConsoleSettingsService.SetFrontendAmounts,
 * which converts them to the wire unit the frontend keeps, checks them with the merchants file's rules and audits the
 * change; a refusal shows the form again with the engine's words beside the inputs it names, as typed. The page's
 * Branding section and its posts are routes/frontend-branding.ts's.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import type { FieldError } from "../../pages/kit/components.ts";
import { html } from "../../pages/kit/html.ts";
import { consoleRefusal, formRefusal, invalidText } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import { brandingCss, brandingSection, type BrandingSectionView, brandingValues } from "../views/frontend-branding.ts";
import { type FrontendAmountsValues, frontendPage, limitCurrencies, storedValues } from "../views/frontend-settings.ts";
import type { Notice } from "../views/model.ts";
import { type BrandingState, frontendBrandingRoutes } from "./frontend-branding.ts";
import { amountErrors, amountsOf, typedValues } from "./frontend-form.ts";
import { consoleGet, consolePost, type PageDeps, refusalPage, type SignedIn } from "./pages.ts";

const MERCHANT = /^[A-Za-z0-9._:-]{1,64}$/;

export function frontendSettingsRoutes(router: Router, deps: PageDeps): void {
  /** The page, or the not-found page for a frontend the merchant lacks. */
  const draw = async (
    ctx: Context,
    s: SignedIn,
    status: number,
    merchantId: string,
    name: string,
    typed?: FrontendAmountsValues,
    refusal?: { notice: Notice; errors: FieldError[] },
    branding: BrandingState = {},
  ) => {
    const m = await deps.client.settings.getMerchant({ context: s.context, merchantId });
    const frontend = m.merchant?.frontends.find((f) => f.name === name);
    if (!frontend) return refusalPage(ctx, s.kit, { kind: "not-found" }, deps.log, undefined, s.operator, s.csrf);
    const path = `/merchants/${encodeURIComponent(merchantId)}/frontends/${encodeURIComponent(name)}`;
    const brand: BrandingSectionView = {
      action: `${path}/branding`,
      csrf: s.csrf,
      canUpdate: s.operator.actions.has("merchant.update"),
      stored: frontend.branding,
      values: branding.values ?? brandingValues(frontend.branding),
      errors: branding.errors ?? [],
      preview: branding.preview,
    };
    const amounts = frontendPage(s.kit.tr, {
      merchantId,
      frontend,
      values: typed ?? storedValues(frontend),
      errors: refusal?.errors ?? [],
      canUpdate: s.operator.actions.has("merchant.update"),
      csrf: s.csrf,
      notice: refusal?.notice,
    });
    const page = html`${amounts}
${brandingSection(s.kit.tr, brand)}`;
    sendPage(ctx, s.kit, status, s.render("merchants", s.kit.tr.t("bo.fe.title", { name }), page, undefined, brandingCss(brand)));
  };
  frontendBrandingRoutes(router, deps, (ctx, s, status, merchantId, name, notice, branding) =>
    draw(ctx, s, status, merchantId, name, undefined, notice ? { notice, errors: [] } : undefined, branding),
  );

  consoleGet(router, "/merchants/:id/frontends/:name", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    const saved = namedIn({ saved: "bo.fe.saved", branded: "bo.brand.saved" } as const, ctx.query.notice);
    await draw(
      ctx,
      s,
      200,
      merchantId,
      ctx.params.name ?? "",
      undefined,
      saved ? { notice: { kind: "success", text: s.kit.tr.t(saved) }, errors: [] } : undefined,
    );
  });

  consolePost(router, "/merchants/:id/frontends/:name/amounts", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    const name = ctx.params.name ?? "";
    if (!s.operator.actions.has("merchant.update"))
      return void refusalPage(ctx, s.kit, { kind: "denied", action: "merchant.update" }, deps.log, undefined, s.operator, s.csrf);
    const m = await deps.client.settings.getMerchant({ context: s.context, merchantId });
    const frontend = m.merchant?.frontends.find((f) => f.name === name);
    if (!frontend) return void refusalPage(ctx, s.kit, { kind: "not-found" }, deps.log, undefined, s.operator, s.csrf);
    const typed = typedValues(form, limitCurrencies(frontend, form.get("currencies") ?? ""));
    const read = amountsOf(typed, (currency) => s.kit.tr.t("bo.fe.badAmount", { currency }));
    if ("errors" in read) {
      const text = read.errors.map((e) => e.message).join(" ");
      return draw(ctx, s, 400, merchantId, name, typed, { notice: { kind: "error", text }, errors: read.errors });
    }
    try {
      await deps.client.settings.setFrontendAmounts({ context: s.context, merchantId, frontend: name, ...read.amounts });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      const refusal = consoleRefusal(err);
      const text = refusal.kind === "invalid" ? invalidText(refusal) : r.text;
      return draw(ctx, s, r.status, merchantId, name, typed, { notice: { kind: "error", text }, errors: amountErrors(refusal, read.amounts) });
    }
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}/frontends/${encodeURIComponent(name)}?notice=saved`);
  });
}
