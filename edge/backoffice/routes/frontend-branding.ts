/**
 * A frontend's branding from the Backoffice (docs/backoffice.md, Branding). The form is multipart (it carries the
 * logo), read within 128 KiB by middleware/multipart-body.ts and CSRF-checked as every console form is; its draft goes
 * to the engine as it was typed: Preview to ConsoleSettingsService.PreviewFrontendBranding (the answer drawn as the
 * engine gave it, the previewed logo's hash kept in a hidden field so that Save names it without a second upload),
 * Save to UpdateFrontend with the mask `branding` (audited as frontend.update as every frontend change). The engine
 * decides who may (a viewer is refused by it, not here) and what is valid; a refusal is shown beside the field it
 * names. Logos are served from the Backoffice's own origin (GET /logos/<sha256>.png through GetFrontendLogo, with the
 * hosted Cashier's headers) so that the console's CSP img-src 'self' holds wherever the hosted Cashier lives.
 */
import type Router from "@koa/router";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FrontendBrandingSchema } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { LOGO_CACHE_CONTROL } from "../../cashier/routes/logo.ts";
import type { MultipartFile } from "../../middleware/multipart-body.ts";
import type { FieldError } from "../../pages/kit/components.ts";
import type { Context } from "koa";
import { consoleRefusal, formRefusal, invalidText } from "../refusal.ts";
import { seeOther } from "../request.ts";
import { BRANDING_INPUTS, type BrandingSectionView, type BrandingValues } from "../views/frontend-branding.ts";
import type { Notice } from "../views/model.ts";
import { consoleUpload, type PageDeps, refusalPage, type SignedIn, signedIn } from "./pages.ts";

/** What a branding post shows again: the draft as typed, the engine's refusal or its preview. */
export type BrandingState = Partial<Pick<BrandingSectionView, "values" | "errors" | "preview">>;

/** The frontend page's drawing (routes/frontend-settings.ts), with a notice and the branding section's state. */
export type DrawFrontend = (
  ctx: Context,
  s: SignedIn,
  status: number,
  merchantId: string,
  name: string,
  notice?: Notice,
  branding?: BrandingState,
) => Promise<void>;

/** The input an engine field names (branding.text_color from a preview, frontend.branding.text_color from a save). */
export function brandingInputOf(field: string): string | undefined {
  const m = /^(?:frontend\.)?branding\.(\w+)$/.exec(field);
  return m ? BRANDING_INPUTS[m[1] as keyof typeof BRANDING_INPUTS] : undefined;
}

/** The form as typed. */
function typedBranding(form: URLSearchParams): BrandingValues {
  const text = (name: string) => (form.get(name) ?? "").trim();
  return {
    displayName: text("display_name"),
    primaryColor: text("primary_color"),
    backgroundColor: text("background_color"),
    textColor: text("text_color"),
    cornerStyle: text("corner_style"),
    logoSha256: text("logo_sha256"),
  };
}

export function frontendBrandingRoutes(router: Router, deps: PageDeps, draw: DrawFrontend): void {
  router.get("/logos/:file", async (ctx) => {
    const m = /^([0-9a-f]{64})\.png$/.exec(ctx.params.file ?? "");
    const s = await signedIn(ctx, deps);
    if (!s) return;
    const notFound = () => {
      ctx.set("X-Content-Type-Options", "nosniff");
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.body = "Not found";
    };
    if (!m) return notFound();
    try {
      const res = await deps.client.settings.getFrontendLogo({ context: s.context, sha256: m[1] });
      ctx.set({
        "Content-Type": "image/png",
        "Cache-Control": LOGO_CACHE_CONTROL,
        "Cross-Origin-Resource-Policy": "same-origin",
        "X-Content-Type-Options": "nosniff",
      });
      ctx.status = 200;
      ctx.body = Buffer.from(res.png);
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.NotFound) return notFound();
      refusalPage(ctx, s.kit, consoleRefusal(err), deps.log, err, s.operator, s.csrf);
    }
  });

  consoleUpload(router, "/merchants/:id/frontends/:name/branding", deps, async (ctx, s, form, file: MultipartFile | undefined) => {
    const merchantId = ctx.params.id ?? "";
    const name = ctx.params.name ?? "";
    const t = s.kit.tr.t;
    const values = typedBranding(form);
    const again = (status: number, text: string, errors: FieldError[]) => draw(ctx, s, status, merchantId, name, { kind: "error", text }, { values, errors });
    const step = form.get("do");
    if (step !== "preview" && step !== "save") return again(400, t("bo.brand.badStep"), []);
    const remove = form.get("remove_logo") === "1";
    if (remove && file) return again(400, t("bo.brand.bothLogo"), [{ field: BRANDING_INPUTS.logo_png, message: t("bo.brand.bothLogo") }]);
    const branding: MessageInitShape<typeof FrontendBrandingSchema> = {
      displayName: values.displayName,
      primaryColor: values.primaryColor,
      backgroundColor: values.backgroundColor,
      textColor: values.textColor,
      cornerStyle: values.cornerStyle,
      logoPng: file?.bytes ?? new Uint8Array(),
      logoSha256: remove ? "" : values.logoSha256,
    };
    try {
      if (step === "preview") {
        const r = await deps.client.settings.previewFrontendBranding({ context: s.context, merchantId, frontend: name, branding });
        const checked = r.branding!;
        return draw(
          ctx,
          s,
          200,
          merchantId,
          name,
          { kind: "info", text: t("bo.brand.previewNotice") },
          {
            values: { ...values, logoSha256: checked.logoSha256 },
            preview: { branding: checked, contrasts: r.contrasts },
          },
        );
      }
      await deps.client.settings.updateFrontend({
        context: s.context,
        update: { merchantId, frontend: { name, branding }, updateMask: { paths: ["branding"] } },
      });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      const refusal = consoleRefusal(err);
      if (refusal.kind !== "invalid") return again(r.status, r.text, []);
      const errors = refusal.violations.flatMap((v) => {
        const id = brandingInputOf(v.field);
        return id ? [{ field: id, message: v.description }] : [];
      });
      return again(r.status, invalidText(refusal), errors);
    }
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}/frontends/${encodeURIComponent(name)}?notice=branded#branding`);
  });
}
