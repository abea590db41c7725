/**
 * Sign-in, second factor, sign-out and enrolment: the only console routes
 * that work without a session. Each form is decoded, its CSRF token checked,
 * the engine asked; guesses are counted per address (rate-limit.ts) and the
 * engine locks an operator after 10 failures. The session cookie is set only
 * from a session the engine issued.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import QRCode from "qrcode";
import { ConnectError } from "@connectrpc/connect";
import { ConsoleErrorReason, ConsoleErrorSchema } from "../../../gen/cashier/admin/v1/console_pb.js";
import { EnrolmentStep, type ConsoleSession } from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { clientAddress } from "../../middleware/client.ts";
import type { FieldError } from "../../pages/kit/components.ts";
import { clearPendingSignIn, clearSession, enrolmentKey, pendingSignIn, sessionToken, setPendingSignIn, setSession } from "../cookies.ts";
import type { ConsoleKey } from "../i18n.ts";
import { consoleRefusal } from "../refusal.ts";
import { consoleContext, csrfToken, formIsOurs, namedIn, pageKit, seeOther, sendPage, type ConsoleDeps, type PageKit } from "../request.ts";
import type { BackofficeClient } from "../engine-client.ts";
import type { SignInLimiter } from "../rate-limit.ts";
import { enrolPasswordPage, enrolTotpPage, messagePage, recoveryCodesPage, secondStepPage, signInPage, type SecondStepView } from "../views/gate.ts";
import type { Notice } from "../views/model.ts";
import { readConsoleForm } from "./forms.ts";
import { refusalPage } from "./pages.ts";
import { MIN_PASSWORD_LENGTH, passwordRefusal } from "../password-rules.ts";

const ENROL_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_PASSKEY_JSON = 8 * 1024;

export interface GateDeps extends ConsoleDeps {
  client: BackofficeClient;
  limiter: SignInLimiter;
  log: { error(obj: object, msg: string): void };
}

/** ?m= on /signin: why the operator is here. */
const NOTICES: Record<string, { kind: Notice["kind"]; key: ConsoleKey }> = {
  idle: { kind: "info", key: "bo.signin.idle" },
  signedout: { kind: "success", key: "bo.signin.signedOut" },
  restart: { kind: "error", key: "bo.second.restart" },
};

function sessionStarted(ctx: Context, session: ConsoleSession | undefined): void {
  clearPendingSignIn(ctx);
  if (session?.sessionToken) setSession(ctx, session.sessionToken);
}

/** A JSON text of bounded size from a form field, else undefined. */
function jsonField(form: URLSearchParams, name: string): string | undefined {
  const v = form.get(name);
  if (!v || v.length > MAX_PASSKEY_JSON) return undefined;
  try {
    JSON.parse(v);
    return v;
  } catch {
    return undefined;
  }
}

export function gateRoutes(router: Router, deps: GateDeps): void {
  const { client, limiter } = deps;

  const signIn = (ctx: Context, kit: PageKit, status: number, login: string, notice?: Notice) =>
    sendPage(ctx, kit, status, signInPage({ ...kit, csrf: csrfToken(ctx, deps) }, { login, notice }));

  const secondStep = (ctx: Context, kit: PageKit, status: number, v: SecondStepView) =>
    sendPage(ctx, kit, status, secondStepPage({ ...kit, csrf: csrfToken(ctx, deps) }, v));

  /**
   * One guess of the address (a password, a second factor, an enrolment
   * form): its attempt is taken before `judge` runs (none left: the page the
   * guess came from, the sign-in page unless `limited` draws another, says
   * how long to wait) and given back unless `judge` calls `failed`.
   */
  const guess = async (
    ctx: Context,
    kit: PageKit,
    login: string,
    judge: (failed: () => void) => Promise<void>,
    limited?: (text: string) => Promise<void>,
  ): Promise<void> => {
    const wait = await limiter.take(clientAddress(ctx));
    if (wait > 0) {
      ctx.set("Retry-After", String(wait));
      const text = kit.tr.t("bo.signin.limited", { seconds: wait });
      if (limited) await limited(text);
      else signIn(ctx, kit, 429, login, { kind: "error", text });
      return;
    }
    let wrong = false;
    try {
      await judge(() => {
        wrong = true;
      });
    } finally {
      if (!wrong) await limiter.giveBack(clientAddress(ctx));
    }
  };

  /** Reads and checks a gate form; answers the refusal itself and returns undefined when it is not acceptable. */
  const formOf = async (ctx: Context, kit: PageKit): Promise<URLSearchParams | undefined> => {
    const read = await readConsoleForm(ctx);
    if (!read.ok) {
      sendPage(ctx, kit, read.http, messagePage(kit, { title: kit.tr.t("kit.refused.heading"), body: read.text }));
      return undefined;
    }
    if (!formIsOurs(ctx, deps, read.form)) {
      sendPage(
        ctx,
        kit,
        403,
        messagePage(kit, {
          title: kit.tr.t("kit.refused.heading"),
          body: kit.tr.t("bo.error.csrf"),
          link: { href: "/signin", label: kit.tr.t("bo.signin.title") },
        }),
      );
      return undefined;
    }
    return read.form;
  };

  router.get("/signin", (ctx) => {
    const kit = pageKit(ctx);
    if (sessionToken(ctx) && !ctx.query.m) return seeOther(ctx, "/");
    const m = namedIn(NOTICES, ctx.query.m);
    signIn(ctx, kit, 200, "", m ? { kind: m.kind, text: kit.tr.t(m.key) } : undefined);
  });

  router.post("/signin", async (ctx) => {
    const kit = pageKit(ctx);
    const form = await formOf(ctx, kit);
    if (!form) return;
    const login = (form.get("login") ?? "").trim().slice(0, 64);
    const password = form.get("password") ?? "";
    await guess(ctx, kit, login, async (failed) => {
      if (!login || !password) return signIn(ctx, kit, 400, login, { kind: "error", text: kit.tr.t("bo.signin.missing") });
      try {
        const res = await client.auth.signIn({ context: consoleContext(ctx, deps, ""), login, password });
        const ttl = res.expireTime ? Number(res.expireTime.seconds) * 1000 - Date.now() : 5 * 60_000;
        setPendingSignIn(ctx, { token: res.pendingToken, login }, Math.max(60_000, ttl));
        secondStep(ctx, kit, 200, { login, passkeyOptions: res.passkeyOptionsJson || undefined });
      } catch (err) {
        const refusal = consoleRefusal(err);
        if (refusal.kind === "sign-in-refused") {
          failed();
          return signIn(ctx, kit, 401, login, { kind: "error", text: kit.tr.t("bo.signin.wrong") });
        }
        if (refusal.kind === "rate-limited") return signIn(ctx, kit, 429, login, { kind: "error", text: kit.tr.t("bo.signin.limited", { seconds: 60 }) });
        refusalPage(ctx, kit, refusal, deps.log, err);
      }
    });
  });

  router.get("/signin/verify", (ctx) => seeOther(ctx, "/signin"));

  /** The second factor, whichever it is; `field` names the form field and the engine's oneof case. */
  const complete = (path: string, field: "totp" | "recovery" | "passkey") =>
    router.post(path, async (ctx) => {
      const kit = pageKit(ctx);
      const form = await formOf(ctx, kit);
      if (!form) return;
      const pending = pendingSignIn(ctx);
      if (!pending) return seeOther(ctx, "/signin?m=restart");
      await guess(ctx, kit, pending.login, async (failed) => {
        const passkeyOptions = jsonField(form, "passkey_options");
        const again = (errorField: "totp" | "recovery" | undefined, key: ConsoleKey, status: number) =>
          secondStep(ctx, kit, status, { login: pending.login, passkeyOptions, errorField, notice: { kind: "error", text: kit.tr.t(key) } });
        const value = field === "passkey" ? jsonField(form, "response") : (form.get(field) ?? "").replace(/\s+/g, "").slice(0, 64);
        if (!value) {
          return field === "passkey" ? again(undefined, "bo.second.passkeyFailed", 400) : again(field, "bo.second.missing", 400);
        }
        const factor =
          field === "totp"
            ? ({ case: "totpCode", value } as const)
            : field === "recovery"
              ? ({ case: "recoveryCode", value } as const)
              : ({ case: "passkeyResponseJson", value } as const);
        try {
          const res = await client.auth.completeSignIn({ context: consoleContext(ctx, deps, ""), pendingToken: pending.token, factor });
          sessionStarted(ctx, res.session);
          seeOther(ctx, "/");
        } catch (err) {
          const refusal = consoleRefusal(err);
          if (refusal.kind === "second-factor-refused") {
            failed();
            if (field === "totp") return again("totp", "bo.second.wrongCode", 401);
            if (field === "recovery") return again("recovery", "bo.second.wrongRecovery", 401);
            return again(undefined, "bo.second.passkeyFailed", 401);
          }
          if (refusal.kind === "sign-in-expired" || refusal.kind === "sign-in-refused") {
            clearPendingSignIn(ctx);
            return seeOther(ctx, "/signin?m=restart");
          }
          refusalPage(ctx, kit, refusal, deps.log, err);
        }
      });
    });
  complete("/signin/totp", "totp");
  complete("/signin/recovery", "recovery");
  complete("/signin/passkey", "passkey");

  router.post("/signout", async (ctx) => {
    const kit = pageKit(ctx);
    const form = await formOf(ctx, kit);
    if (!form) return;
    await client.auth.signOut({ context: consoleContext(ctx, deps) }).catch(() => {});
    clearSession(ctx);
    seeOther(ctx, "/signin?m=signedout");
  });

  // Enrolment from the one-time link: password, then the authenticator app.
  const enrolToken = (ctx: Context): string | undefined => (ENROL_TOKEN.test(ctx.params.token ?? "") ? ctx.params.token : undefined);
  const linkGone = (ctx: Context, kit: PageKit) =>
    sendPage(
      ctx,
      kit,
      404,
      messagePage(kit, {
        title: kit.tr.t("bo.enrol.gone.title"),
        body: kit.tr.t("bo.enrol.gone.body"),
        link: { href: "/signin", label: kit.tr.t("bo.signin.title") },
      }),
    );

  /** The enrolment goes on in the browser that set its password: another holding the link is told so, and shown nothing of it. */
  const elsewhere = (ctx: Context, kit: PageKit) =>
    sendPage(
      ctx,
      kit,
      409,
      messagePage(kit, {
        title: kit.tr.t("bo.enrol.elsewhere.title"),
        body: kit.tr.t("bo.enrol.elsewhere.body"),
        link: { href: "/signin", label: kit.tr.t("bo.signin.title") },
      }),
    );

  const showEnrolment = async (ctx: Context, kit: PageKit, token: string, errors: FieldError[] = [], status = 200) => {
    const enrolment = await client.auth.getEnrolment({ context: consoleContext(ctx, deps, ""), token, browserKey: enrolmentKey(ctx) });
    if (enrolment.otherBrowser) return elsewhere(ctx, kit);
    const gate = { ...kit, csrf: csrfToken(ctx, deps) };
    if (enrolment.step === EnrolmentStep.TOTP && enrolment.totp) {
      const qrSvg = await QRCode.toString(enrolment.totp.otpauthUri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
      return sendPage(
        ctx,
        kit,
        status,
        enrolTotpPage(gate, { login: enrolment.login, action: `/enrol/${token}/totp`, qrSvg, secret: enrolment.totp.secretBase32, errors }),
      );
    }
    sendPage(ctx, kit, status, enrolPasswordPage(gate, { login: enrolment.login, action: `/enrol/${token}`, minLength: MIN_PASSWORD_LENGTH, errors }));
  };

  const enrolFailed = (ctx: Context, kit: PageKit, err: unknown) => {
    const refusal = consoleRefusal(err);
    if (refusal.kind === "enrolment-invalid" || refusal.kind === "not-found") return linkGone(ctx, kit);
    if (
      refusal.kind === "refused" &&
      err instanceof ConnectError &&
      err.findDetails(ConsoleErrorSchema)[0]?.reason === ConsoleErrorReason.ENROLMENT_OTHER_BROWSER
    )
      return elsewhere(ctx, kit);
    refusalPage(ctx, kit, refusal, deps.log, err);
  };

  /** A guess on an enrolment link's form: refused, failed or told to wait, the answer is the link's page again. */
  const enrolGuess = (ctx: Context, kit: PageKit, token: string, field: string, judge: (failed: () => void) => Promise<void>) =>
    guess(
      ctx,
      kit,
      "",
      (failed) => judge(failed).catch((err) => enrolFailed(ctx, kit, err)),
      (text) => showEnrolment(ctx, kit, token, [{ field, message: text }], 429).catch((err) => enrolFailed(ctx, kit, err)),
    );

  router.get("/enrol/:token", async (ctx) => {
    const kit = pageKit(ctx);
    const token = enrolToken(ctx);
    if (!token) return linkGone(ctx, kit);
    await showEnrolment(ctx, kit, token).catch((err) => enrolFailed(ctx, kit, err));
  });

  router.post("/enrol/:token", async (ctx) => {
    const kit = pageKit(ctx);
    const token = enrolToken(ctx);
    if (!token) return linkGone(ctx, kit);
    const form = await formOf(ctx, kit);
    if (!form) return;
    const password = form.get("password") ?? "";
    const again = form.get("password_again") ?? "";
    const t = kit.tr.t;
    await enrolGuess(ctx, kit, token, "password", async (failed) => {
      if (!password || !again)
        return await showEnrolment(ctx, kit, token, [{ field: !password ? "password" : "password_again", message: t("bo.enrol.missing") }], 400);
      if (password !== again) return await showEnrolment(ctx, kit, token, [{ field: "password_again", message: t("bo.enrol.mismatch") }], 400);
      try {
        await client.auth.setEnrolmentPassword({ context: consoleContext(ctx, deps, ""), token, password, browserKey: enrolmentKey(ctx) });
      } catch (err) {
        const refusal = consoleRefusal(err);
        // Set already (a second form, or another tab): the link's page now asks for the code.
        if (refusal.kind === "refused") return seeOther(ctx, `/enrol/${token}`);
        if (refusal.kind !== "invalid") throw err;
        failed();
        const [broken] = refusal.violations;
        const message = (broken && passwordRefusal(t, broken)) ?? t("bo.enrol.refused", { min: MIN_PASSWORD_LENGTH });
        return await showEnrolment(ctx, kit, token, [{ field: "password", message }], 400);
      }
      seeOther(ctx, `/enrol/${token}`);
    });
  });

  router.post("/enrol/:token/totp", async (ctx) => {
    const kit = pageKit(ctx);
    const token = enrolToken(ctx);
    if (!token) return linkGone(ctx, kit);
    const form = await formOf(ctx, kit);
    if (!form) return;
    const code = (form.get("code") ?? "").replace(/\s+/g, "").slice(0, 16);
    const t = kit.tr.t;
    await enrolGuess(ctx, kit, token, "code", async (failed) => {
      if (!code) return await showEnrolment(ctx, kit, token, [{ field: "code", message: t("bo.enrol.codeMissing") }], 400);
      let done: Awaited<ReturnType<BackofficeClient["auth"]["confirmEnrolmentTotp"]>>;
      try {
        done = await client.auth.confirmEnrolmentTotp({ context: consoleContext(ctx, deps, ""), token, code, browserKey: enrolmentKey(ctx) });
      } catch (err) {
        const refusal = consoleRefusal(err);
        if (refusal.kind !== "invalid") return enrolFailed(ctx, kit, err);
        failed();
        return await showEnrolment(ctx, kit, token, [{ field: "code", message: t("bo.enrol.wrongCode") }], 400);
      }
      sessionStarted(ctx, done.session);
      const session = done.session?.sessionToken ?? "";
      // The passkey is optional: without options (the engine refused, or none offered) the page simply omits it.
      const options = await client.auth
        .startPasskeyRegistration({ context: consoleContext(ctx, deps, session) })
        .then((r) => r.optionsJson || undefined)
        .catch(() => undefined);
      const csrf = deps.csrf.token(session);
      sendPage(ctx, kit, 200, recoveryCodesPage({ ...kit, csrf }, { codes: done.recoveryCodes, passkeyOptions: options }));
    });
  });
}
