/**
 * /merchants/:id/new-account and /merchants/:id/accounts/:name: an admin adds an account (the connector chosen first, from the engine's list, since it
 * decides the form), changes one, or removes one. Each form is decoded here and sent to ConsoleSettingsService,
 * which checks the role, the fields (the connector's own schema) and that a removed account is used by nothing,
 * and audits the change; a refusal shows the form again with the engine's words beside the field it names, what was
 * typed kept but for the credentials, which are never sent back to a browser.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import type { Connector } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { consoleRefusal, formRefusal, invalidText } from "../refusal.ts";
import { seeOther, sendPage } from "../request.ts";
import { accountPage, type AccountFormValues } from "../views/processor-accounts.ts";
import type { Notice } from "../views/model.ts";
import type { FieldError } from "../../pages/kit/components.ts";
import { accountErrors, accountValues, flatSettings, settingsObject, typedCredentials } from "./account-form.ts";
import { consoleGet, consolePost, type PageDeps, refusalPage, type SignedIn } from "./pages.ts";

const MERCHANT = /^[A-Za-z0-9._:-]{1,64}$/;

export function processorAccountRoutes(router: Router, deps: PageDeps): void {
  const merchantOf = async (s: SignedIn, merchantId: string) => deps.client.settings.getMerchant({ context: s.context, merchantId });

  /** The form page: for an admin only (the engine refuses the change to anyone else anyway). */
  const draw = async (
    ctx: Context,
    s: SignedIn,
    status: number,
    merchantId: string,
    connector: Connector,
    name: string | undefined,
    values: AccountFormValues | undefined,
    refusal?: { notice: Notice; errors: FieldError[] },
  ) => {
    const m = await merchantOf(s, merchantId);
    const account = name === undefined ? undefined : m.accounts.find((a) => a.processor === name);
    const page = accountPage(s.kit.tr, {
      merchantId,
      connector,
      account,
      values: values ?? {
        name: account?.processor ?? "",
        url: account?.endpointUrl ?? "",
        enabled: account?.enabled ?? true,
        settings: account?.connector === connector.name ? flatSettings(account.settings) : [],
      },
      errors: refusal?.errors ?? [],
      csrf: s.csrf,
      notice: refusal?.notice,
    });
    const title = account ? s.kit.tr.t("bo.pa.editTitle", { name: account.processor }) : s.kit.tr.t("bo.pa.newTitle", { connector: connector.name });
    sendPage(ctx, s.kit, status, s.render("merchants", title, page));
  };

  const denied = (ctx: Context, s: SignedIn) => refusalPage(ctx, s.kit, { kind: "denied", action: "merchant.update" }, deps.log, undefined, s.operator, s.csrf);
  const notFound = (ctx: Context, s: SignedIn) => refusalPage(ctx, s.kit, { kind: "not-found" }, deps.log, undefined, s.operator, s.csrf);

  consoleGet(router, "/merchants/:id/new-account", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    if (!s.operator.actions.has("merchant.update")) return void denied(ctx, s);
    const m = await merchantOf(s, merchantId);
    const connector = m.connectors.find((c) => c.name === ctx.query.connector);
    if (!connector) return void notFound(ctx, s);
    await draw(ctx, s, 200, merchantId, connector, undefined, undefined);
  });

  consoleGet(router, "/merchants/:id/accounts/:name", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT.test(merchantId)) return undefined;
    if (!s.operator.actions.has("merchant.update")) return void denied(ctx, s);
    const m = await merchantOf(s, merchantId);
    const account = m.accounts.find((a) => a.processor === ctx.params.name);
    const connector = m.connectors.find((c) => c.name === account?.connector);
    if (!account || !connector) return void notFound(ctx, s);
    await draw(ctx, s, 200, merchantId, connector, account.processor, undefined);
  });

  /** Adds (`name` undefined) or changes an account from its form; a refusal draws the form again. */
  const save = async (ctx: Context, s: SignedIn, form: URLSearchParams, name: string | undefined) => {
    const merchantId = ctx.params.id ?? "";
    const values = accountValues(form);
    const connectorName = form.get("connector") ?? "";
    try {
      await deps.client.settings.setProcessorAccount({
        context: s.context,
        merchantId,
        account: {
          processor: name ?? values.name,
          connector: connectorName,
          endpointUrl: values.url,
          enabled: values.enabled,
          settings: settingsObject(values.settings),
        },
        credentials: typedCredentials(form),
        removeCredentials: form.getAll("remove_credential"),
        createOnly: name === undefined,
      });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      const m = await merchantOf(s, merchantId);
      const connector = m.connectors.find((c) => c.name === connectorName);
      if (!connector) throw err;
      const refusal = consoleRefusal(err);
      const text = refusal.kind === "invalid" ? invalidText(refusal) : r.text;
      return draw(ctx, s, r.status, merchantId, connector, name, values, { notice: { kind: "error", text }, errors: accountErrors(refusal) });
    }
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}?notice=accountSaved#accounts`);
  };

  consolePost(router, "/merchants/:id/accounts", deps, (ctx, s, form) => save(ctx, s, form, undefined));
  consolePost(router, "/merchants/:id/accounts/:name", deps, (ctx, s, form) => save(ctx, s, form, ctx.params.name ?? ""));

  consolePost(router, "/merchants/:id/accounts/:name/delete", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    const name = ctx.params.name ?? "";
    try {
      await deps.client.settings.deleteProcessorAccount({ context: s.context, merchantId, name });
    } catch (err) {
      const r = formRefusal(err);
      if (!r) throw err;
      const m = await merchantOf(s, merchantId);
      const account = m.accounts.find((a) => a.processor === name);
      const connector = m.connectors.find((c) => c.name === account?.connector);
      if (!account || !connector) throw err;
      return draw(ctx, s, r.status, merchantId, connector, name, undefined, { notice: { kind: "error", text: r.text }, errors: [] });
    }
    seeOther(ctx, `/merchants/${encodeURIComponent(merchantId)}?notice=accountRemoved#accounts`);
  });
}
