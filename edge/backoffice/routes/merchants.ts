/**
 * /merchants: the list, one merchant's settings, and the admin forms: the
 * merchant's settings, a frontend's hosted Cashier settings, the four-eyes
 * amounts and the secret's rotation. Each form is decoded here and the
 * engine checks and audits the change; a form refused for what it holds
 * shows the merchant's page again with the refusal above it (400, or 409 for
 * a state that forbids it), every other form and link still at hand.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { RefusedForm } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { PayoutApproval } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { currencyExponent } from "../../../engine/shared/money.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import { formRefusal } from "../refusal.ts";
import type { Notice } from "../views/model.ts";
import { merchantPage, merchantsPage } from "../views/merchants.ts";
import type { ConsoleKey } from "../i18n.ts";
import { consoleGet, consolePost, type PageDeps, type SignedIn } from "./pages.ts";
import { fileRefusedForm } from "./refused-form.ts";

const MERCHANT = /^[A-Za-z0-9._-]{1,64}$/;

/** "USD 1000.00" -> 100000n minor units, exactly; undefined when it is not one. */
export function parseAmountLine(line: string): { currency: string; amountMinor: bigint } | undefined {
  const m = /^([A-Za-z]{3})\s+(\d{1,15})(?:[.,](\d+))?$/.exec(line.trim());
  if (!m) return undefined;
  const currency = m[1].toUpperCase();
  const exponent = currencyExponent(currency);
  const fraction = m[3] ?? "";
  if (exponent === undefined || fraction.length > exponent) return undefined;
  return { currency, amountMinor: BigInt(m[2] + fraction.padEnd(exponent, "0")) };
}

const NOTICES: Record<string, ConsoleKey> = {
  saved: "bo.merchant.saved",
  rotated: "bo.merchant.rotated",
  accountSaved: "bo.pa.saved",
  accountRemoved: "bo.pa.removed",
};

export function merchantRoutes(router: Router, deps: PageDeps): void {
  /** One merchant's page as it stands, with a notice above it. */
  const drawMerchant = async (s: SignedIn, merchantId: string, notice?: Notice) => {
    const res = await deps.client.settings.getMerchant({ context: s.context, merchantId });
    return s.render(
      "merchants",
      s.kit.tr.t("bo.merchant.title", { merchant: merchantId }),
      merchantPage(s.kit.tr, {
        merchant: res.merchant!,
        accounts: res.accounts,
        connectors: res.connectors,
        fourEyes: res.fourEyesThresholds,
        canUpdate: s.operator.actions.has("merchant.update"),
        canRotate: s.operator.actions.has("merchant.rotate_secret"),
        canMoto: s.operator.actions.has("transaction.moto"),
        csrf: s.csrf,
        notice,
      }),
    );
  };
  const refused = async (ctx: Context, s: SignedIn, merchantId: string, status: number, text: string) =>
    sendPage(ctx, s.kit, status, await drawMerchant(s, merchantId, { kind: "error", text }));
  /** A form's change; refused for its fields or the merchant's state, the merchant's page with why. */
  const change = async (ctx: Context, s: SignedIn, merchantId: string, notice: string, apply: () => Promise<unknown>) => {
    try {
      await apply();
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      return refused(ctx, s, merchantId, r.status, r.text);
    }
    seeOther(ctx, back(merchantId, notice));
  };

  consoleGet(router, "/merchants", deps, async (ctx, s) => {
    const res = await deps.client.settings.listMerchants({ context: s.context, pageSize: 100, pageToken: String(ctx.query.page_token ?? "").slice(0, 512) });
    return s.render("merchants", s.kit.tr.t("bo.nav.merchants"), merchantsPage(s.kit.tr, res.merchants, res.nextPageToken));
  });

  consoleGet(router, "/merchants/:id", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    const key = namedIn(NOTICES, ctx.query.notice);
    return drawMerchant(s, merchantId, key ? { kind: "success", text: s.kit.tr.t(key) } : undefined);
  });

  /** The merchant settings form's fields, by the names UpdateMerchantRequest's mask takes. */
  const MERCHANT_FORM_FIELDS = ["platform_url", "validation_url", "update_payout_url", "payout_approval", "processors"] as const;
  const back = (merchantId: string, notice: string) => `/merchants/${encodeURIComponent(merchantId)}?notice=${notice}`;

  consolePost(router, "/merchants/:id/settings", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    const processors = (form.get("processors") ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const approval = form.get("payout_approval");
    // Only what the form sent is changed: a field missing from a post is no wish to reset it (payout approval
    // read as auto when absent would have switched a merchant's manual review off). A value the form does not
    // offer goes to the engine as unspecified, which names it.
    const paths = MERCHANT_FORM_FIELDS.filter((f) => form.has(f));
    await change(ctx, s, merchantId, "saved", () =>
      deps.client.settings.updateMerchant({
        context: s.context,
        update: {
          merchant: {
            merchantId,
            platformUrl: (form.get("platform_url") ?? "").trim(),
            validationUrl: (form.get("validation_url") ?? "").trim(),
            updatePayoutUrl: (form.get("update_payout_url") ?? "").trim(),
            payoutApproval: approval === "manual" ? PayoutApproval.MANUAL : approval === "auto" ? PayoutApproval.AUTO : PayoutApproval.UNSPECIFIED,
            processors,
          },
          updateMask: { paths },
        },
      }),
    );
  });

  consolePost(router, "/merchants/:id/frontends/:name", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    const origins = (form.get("allowed_origins") ?? "")
      .split(/\r?\n/)
      .map((o) => o.trim())
      .filter(Boolean);
    await change(ctx, s, merchantId, "saved", () =>
      deps.client.settings.updateFrontend({
        context: s.context,
        update: {
          merchantId,
          frontend: {
            name: ctx.params.name ?? "",
            allowedOrigins: origins,
            defaultLocale: (form.get("default_locale") ?? "").trim() || "en",
            saveCards: form.get("save_cards") === "1",
            closedLoopWithdrawals: form.get("closed_loop_withdrawals") === "1",
            playerCancelWithdrawal: form.get("player_cancel_withdrawal") === "1",
          },
          updateMask: { paths: ["allowed_origins", "default_locale", "save_cards", "closed_loop_withdrawals", "player_cancel_withdrawal"] },
        },
      }),
    );
  });

  consolePost(router, "/merchants/:id/four-eyes", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    const lines = (form.get("thresholds") ?? "").split(/\r?\n/).filter((l) => l.trim());
    const thresholds: { currency: string; amountMinor: bigint }[] = [];
    for (const [i, line] of lines.entries()) {
      const parsed = parseAmountLine(line);
      if (!parsed) {
        // Filed with the engine first: audited, or "Not allowed" for a role that may not change the merchant.
        await fileRefusedForm(deps, s, RefusedForm.FOUR_EYES, { merchantId }, { key: "bo.merchant.badThreshold", params: { line: i + 1 } });
        return refused(ctx, s, merchantId, 400, s.kit.tr.t("bo.merchant.badThreshold", { line: i + 1 }));
      }
      thresholds.push(parsed);
    }
    await change(ctx, s, merchantId, "saved", () => deps.client.settings.setFourEyesThresholds({ context: s.context, merchantId, thresholds }));
  });

  consolePost(router, "/merchants/:id/rotate-secret", deps, async (ctx, s, form) => {
    const merchantId = ctx.params.id ?? "";
    // The form offers these; anything else is named, not quietly made a day.
    const given = form.get("overlap_hours") ?? "";
    const hours = given === "" ? 24 : Number(given);
    if (![1, 24, 72, 168].includes(hours)) {
      await fileRefusedForm(deps, s, RefusedForm.SECRET_ROTATION, { merchantId }, { key: "bo.merchant.badOverlap" });
      return refused(ctx, s, merchantId, 400, s.kit.tr.t("bo.merchant.badOverlap"));
    }
    await change(ctx, s, merchantId, "rotated", () =>
      deps.client.settings.rotateMerchantSecret({
        context: s.context,
        rotation: { merchantId, newSecret: form.get("new_secret") ?? "", overlapSeconds: hours * 3600 },
      }),
    );
  });
}
