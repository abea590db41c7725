/**
 * ConsoleSettingsService, a frontend's branding preview (docs/backoffice.md, Branding): an admin's draft checked by
 * the merchants file's parser exactly as UpdateFrontend checks it, with each pair's contrast as the engine measured
 * it, so that the Backoffice shows the engine's answer and repeats no rule. Nothing of the frontend changes and
 * nothing is audited; a new logo is stored by its SHA-256 (content-named, never changed, bounded to 64 KiB) so that
 * the save after the preview may name it by hash instead of uploading it again. GetFrontendLogo gives a stored
 * logo's bytes to any signed-in operator (merchant.read), so that the Backoffice shows it from its own origin.
 */
import { create } from "@bufbuild/protobuf";
import {
  BrandingContrastSchema,
  type ConsoleSettingsService,
  GetFrontendLogoResponseSchema,
  PreviewFrontendBrandingResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { MerchantsFileError, previewBranding } from "../../payments/index.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { authorize } from "../app/console-session.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { brandingEntryOf, brandingToProto } from "./frontend-mappers.ts";
import type { MerchantSettingsDeps } from "./settings-merchants.ts";

type Calls = Pick<ServiceImpl<typeof ConsoleSettingsService>, "previewFrontendBranding" | "getFrontendLogo">;

/** The logos' reader (engine/payments/store/brand-logo-store.ts), the one the hosted Cashier's edge reads through. */
export interface LogoReader {
  logos: { get(sha256: string): Promise<Uint8Array | undefined> };
}

export function brandingSettings(deps: MerchantSettingsDeps & LogoReader): Calls {
  const store = deps.merchantStore;
  return {
    previewFrontendBranding: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.update");
        if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
        merchantsFor(who, req.merchantId);
        const m = await store.view(req.merchantId);
        if (!m) throw notFound(`no merchant ${req.merchantId}`);
        if (!m.frontends.some((f) => f.name === req.frontend)) throw notFound(`no frontend ${req.frontend} for ${req.merchantId}`);
        if (!req.branding) throw invalidArgument("branding", "is required: the draft to preview");
        let preview: ReturnType<typeof previewBranding>;
        try {
          preview = previewBranding(brandingEntryOf(req.branding), "branding");
        } catch (err) {
          if (!(err instanceof MerchantsFileError)) throw err;
          throw invalidArgument(err.field, err.problem);
        }
        const { branding, contrasts } = preview;
        if (branding.newLogo) await store.keepLogo(branding.newLogo);
        return create(PreviewFrontendBrandingResponseSchema, {
          branding: brandingToProto(branding),
          contrasts: contrasts.map((c) => create(BrandingContrastSchema, c)),
        });
      }),

    getFrontendLogo: (req) =>
      consoleCall(async () => {
        await authorize(deps, callerOf(req.context), "merchant.read");
        const png = await deps.logos.get(req.sha256);
        if (!png) throw notFound("no logo has this SHA-256");
        return create(GetFrontendLogoResponseSchema, { png });
      }),
  };
}
