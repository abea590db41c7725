/**
 * /account: the signed-in operator's own password and passkeys, whatever the
 * role. The engine judges the current password (it counts toward the lock),
 * the new one's rules, and ends the operator's other sessions; the console
 * only checks that the new password was typed the same twice, and tells a
 * wrong password from a locked account.
 */
import type Router from "@koa/router";
import type { FieldError } from "../../pages/kit/components.ts";
import { consoleRefusal } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import { accountPage } from "../views/admin.ts";
import type { Notice } from "../views/model.ts";
import { MIN_PASSWORD_LENGTH, passwordRefusal } from "../password-rules.ts";
import { consoleGet, consolePost, type PageDeps, type SignedIn } from "./pages.ts";

const NOTICES = {
  added: { kind: "success", key: "bo.passkey.added" },
  failed: { kind: "error", key: "bo.passkey.failed" },
  password: { kind: "success", key: "bo.password.changed" },
} as const;

async function accountBody(deps: PageDeps, s: SignedIn, notice?: Notice, passwordErrors?: readonly FieldError[]) {
  const [list, options] = await Promise.all([
    deps.client.auth.listPasskeys({ context: s.context }),
    deps.client.auth
      .startPasskeyRegistration({ context: s.context })
      .then((r) => r.optionsJson || undefined)
      .catch(() => undefined),
  ]);
  const t = s.kit.tr.t;
  return s.render(
    "account",
    t("bo.account.title"),
    accountPage(s.kit.tr, {
      login: s.operator.login,
      role: t(`bo.role.${s.operator.role}`),
      passkeys: list.passkeys,
      passkeyOptions: options,
      csrf: s.csrf,
      nonce: s.kit.nonce,
      notice,
      passwordErrors,
      minPasswordLength: MIN_PASSWORD_LENGTH,
    }),
    options ? ["webauthn"] : [],
  );
}

export function accountRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/account", deps, async (ctx, s) => {
    const n = namedIn(NOTICES, ctx.query.notice);
    return accountBody(deps, s, n ? { kind: n.kind, text: s.kit.tr.t(n.key) } : undefined);
  });

  consolePost(router, "/account/password", deps, async (ctx, s, form) => {
    const t = s.kit.tr.t;
    const again = async (errors: FieldError[]) => sendPage(ctx, s.kit, 400, await accountBody(deps, s, undefined, errors));
    const current = form.get("current_password") ?? "";
    const next = form.get("new_password") ?? "";
    if (!current) return again([{ field: "current_password", message: t("bo.password.currentMissing") }]);
    if (next !== (form.get("new_password_again") ?? "")) return again([{ field: "new_password_again", message: t("bo.enrol.mismatch") }]);
    try {
      await deps.client.auth.changePassword({ context: s.context, currentPassword: current, newPassword: next });
    } catch (err) {
      const refusal = consoleRefusal(err);
      // Locked (by this attempt or before): no password is judged now, the right one neither.
      if (refusal.kind === "refused") return again([{ field: "current_password", message: t("bo.password.locked") }]);
      if (refusal.kind !== "invalid") throw err;
      const errors = refusal.violations.map((v) =>
        v.field === "current_password"
          ? { field: v.field, message: t("bo.password.wrongCurrent") }
          : { field: "new_password", message: passwordRefusal(t, v) ?? `${t("bo.password.new")}: ${v.description}` },
      );
      return again(errors);
    }
    seeOther(ctx, "/account?notice=password");
  });

  consolePost(router, "/account/passkeys", deps, async (ctx, s, form) => {
    const response = form.get("response") ?? "";
    try {
      JSON.parse(response);
      await deps.client.auth.finishPasskeyRegistration({ context: s.context, responseJson: response, name: (form.get("name") ?? "").slice(0, 64) });
    } catch (err) {
      const refusal = consoleRefusal(err);
      if (refusal.kind === "session-ended" || refusal.kind === "session-required" || refusal.kind === "unavailable") throw err;
      return seeOther(ctx, "/account?notice=failed");
    }
    seeOther(ctx, "/account?notice=added");
  });

  consolePost(router, "/account/passkeys/delete", deps, async (ctx, s, form) => {
    await deps.client.auth.deletePasskey({ context: s.context, id: (form.get("id") ?? "").slice(0, 512) });
    seeOther(ctx, "/account");
  });
}
