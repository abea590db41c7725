/**
 * What every console request needs: its language and nonce, the
 * ConsoleContext the engine is called with (session token, the person's
 * address and browser, the console's origin), CSRF tokens bound to the
 * session (or, before sign-in, to the visitor cookie), and the headers every
 * page is sent with.
 */
import type { Context } from "koa";
import { create } from "@bufbuild/protobuf";
import { type ConsoleContext, ConsoleContextSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { clientAddress, viaHttps } from "../middleware/client.ts";
import type { Csrf } from "../pages/kit/csrf.ts";
import { CSRF_FIELD } from "../pages/kit/csrf.ts";
import type { Html } from "../pages/kit/html.ts";
import { newNonce, pageHeaders } from "../pages/kit/security.ts";
import { sessionToken, visitor } from "./cookies.ts";
import { type ConsoleTranslator, translatorFor } from "./i18n.ts";

export interface ConsoleDeps {
  csrf: Csrf;
  /** BACKOFFICE_PUBLIC_URL's origin when set; else the request's own (Host header and scheme). */
  publicOrigin?: string;
}

/** The request's own origin: its Host, and its scheme as the client used it (a trusted proxy's X-Forwarded-Proto). */
function ownOrigin(ctx: Context): string {
  return `${viaHttps(ctx) ? "https" : "http"}://${ctx.host}`;
}

/** The console's origin as the browser sees it. */
export function originOf(ctx: Context, deps: ConsoleDeps): string {
  return deps.publicOrigin ?? ownOrigin(ctx);
}

export function consoleContext(ctx: Context, deps: ConsoleDeps, session = sessionToken(ctx) ?? ""): ConsoleContext {
  return create(ConsoleContextSchema, {
    sessionToken: session,
    clientAddress: clientAddress(ctx),
    userAgent: (ctx.get("user-agent") || "").slice(0, 256),
    origin: originOf(ctx, deps),
  });
}

/** One response's language and nonce. */
export interface PageKit {
  tr: ConsoleTranslator;
  nonce: string;
}

export function pageKit(ctx: Context): PageKit {
  return { tr: translatorFor(ctx), nonce: newNonce() };
}

/** What a form's CSRF token is bound to: the session, else the visitor cookie. */
function csrfSubject(ctx: Context): string {
  return sessionToken(ctx) ?? visitor(ctx);
}

export function csrfToken(ctx: Context, deps: ConsoleDeps): string {
  return deps.csrf.token(csrfSubject(ctx));
}

/**
 * A posted form is ours: its CSRF token was made for this browser's session
 * (or visitor cookie), and what the browser says of the request's source
 * agrees: Sec-Fetch-Site same-origin (or none, typed by hand), an Origin that
 * is the console's. Under Referrer-Policy no-referrer a browser sends
 * `Origin: null` for its own forms, so "null" proves nothing either way and
 * the token decides.
 */
export function formIsOurs(ctx: Context, deps: ConsoleDeps, form: URLSearchParams): boolean {
  const site = ctx.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = ctx.get("origin");
  if (origin && origin !== "null" && origin !== originOf(ctx, deps) && origin !== ownOrigin(ctx)) return false;
  const subject = sessionToken(ctx) ?? visitor(ctx);
  return deps.csrf.verify(subject, form.get(CSRF_FIELD));
}

/** Sends a page with the console's headers: strict CSP under the nonce, no framing, no caching, no referrer; HSTS over TLS. */
export function sendPage(ctx: Context, kit: PageKit, status: number, page: Html): void {
  ctx.status = status;
  ctx.set(pageHeaders({ nonce: kit.nonce, tls: viaHttps(ctx), customerData: true }));
  ctx.set("Vary", "Accept-Language, Cookie");
  ctx.body = page.value;
}

/** A 303 to a page of the console (after a form: the browser then GETs it). */
export function seeOther(ctx: Context, path: string): void {
  ctx.status = 303;
  ctx.set({ Location: path, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  ctx.body = "";
}

/**
 * The entry a query parameter names in a page's own table (of notices, say), or none: own members only, so that
 * `?notice=constructor` or `__proto__` names nothing rather than Object's own.
 */
export function namedIn<T>(table: Readonly<Record<string, T>>, value: unknown): T | undefined {
  const name = typeof value === "string" ? value : "";
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
