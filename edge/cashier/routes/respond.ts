/**
 * What the Cashier's routes share: the page's language (the session's
 * locale, the browser's, the frontend's default), a fresh nonce, sending a
 * page, and one table from an engine refusal to the notice a customer sees
 * (never an internal text).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Context } from "koa";
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import type { EdgeLogger } from "../../logger.ts";
import type { Client } from "@connectrpc/connect";
import type { CashierService } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { viaHttps } from "../../middleware/client.ts";
import { refusalOf } from "../../middleware/errors.ts";
import type { Csrf } from "../../pages/kit/csrf.ts";
import { translator } from "../../pages/kit/i18n.ts";
import { chooseLocale } from "../../pages/kit/locale.ts";
import { declaredParent, newNonce } from "../../pages/kit/security.ts";
import type { CashierLimiters } from "../rate-limits.ts";
import { type NoticeKind, noticePage } from "../views/notice.ts";
import type { CashierPage, PageContext } from "../views/page.ts";

/** CashierService's Connect client (the edge makes it beside EngineService's, on one transport). */
export type CashierClient = Client<typeof CashierService>;

export interface CashierDeps {
  cashier: CashierClient;
  csrf: Csrf;
  limiters: CashierLimiters;
  log: EdgeLogger;
}

/** The language and nonce of one response. */
export function pageContext(ctx: Context, session?: CashierSession): PageContext {
  const locale = chooseLocale({
    sessionLocale: session?.locale || undefined,
    acceptLanguage: ctx.get("accept-language") || undefined,
    defaultLocale: session?.frontendSettings?.defaultLocale || undefined,
  });
  return { tr: translator(locale), nonce: newNonce(), tls: viaHttps(ctx), frameAncestors: session?.frontendSettings?.allowedOrigins ?? [] };
}

export function send(ctx: Context, page: CashierPage): void {
  ctx.status = page.http;
  ctx.set(page.headers);
  ctx.set("Vary", "Accept-Language");
  ctx.body = page.html;
}

/** A 303 to a page of this site (after a form, so that a reload does not post it again). */
export function seeOther(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.set({ Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  ctx.body = "";
}

/** The notice an engine refusal shows; 5xx ones are logged (without the path's token). */
export function noticeOf(err: unknown): NoticeKind {
  const reason = refusalOf(err).reason;
  switch (reason) {
    case "AUTOLOGIN_UNUSABLE":
      return "autologin";
    case "SESSION_ENDED":
      return "ended";
    case "NOT_FOUND":
      return "notFound";
    case "NOT_ALLOWED_BY_FRONTEND":
      return "notAllowed";
    case "UNAVAILABLE":
      return "unavailable";
    case "ORDER_CONFLICT":
      return "taken";
    default:
      return refusalOf(err).reason === "INTERNAL" ? "failed" : "notFound";
  }
}

/** Where guardedForm keeps (in ctx.state) the parent origin a form's CSRF token proved. */
export const PROVEN_PARENT = "cashierProvenParent";

/**
 * The notice of a refusal. Its parent, to which it posts its events (cashier:expired for an ended session): the
 * declared one when the session is known and allows it; else the one the form's token proved, which may then frame
 * it too (the engine names no allowed_origins for a session that has ended, and the page says nothing more).
 */
export function refuse(ctx: Context, deps: CashierDeps, err: unknown, session?: CashierSession): void {
  const kind = noticeOf(err);
  if (kind === "failed" || kind === "unavailable") deps.log.error({ err, path: "/cashier" }, "cashier page failed");
  const c = pageContext(ctx, session);
  const proven = typeof ctx.state[PROVEN_PARENT] === "string" ? (ctx.state[PROVEN_PARENT] as string) : undefined;
  const parent = session ? declaredParent(ctx.query.parent, c.frameAncestors ?? []) : proven;
  send(ctx, noticePage(session || !parent ? c : { ...c, frameAncestors: [parent] }, kind, {}, parent));
}

/** Whether an engine error is the field refusal of a form (INVALID_ARGUMENT with field violations). */
export function isFieldRefusal(err: unknown): err is ConnectError {
  return err instanceof ConnectError && err.code === Code.InvalidArgument;
}
