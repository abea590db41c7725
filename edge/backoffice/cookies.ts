/**
 * The console's cookies, all HttpOnly and SameSite=Strict, Secure over TLS
 * (with the __Host- prefix there, so no subdomain can plant one; TLS as the
 * browser used it: the console's own, or a trusted proxy's, edge/middleware/client.ts):
 * - the session: only the session token the engine issued, nothing else;
 * - the pending sign-in: the engine's 5-minute token between the password and
 *   the second factor, and the login it belongs to (to greet the operator);
 * - the visitor: a random value that binds the CSRF tokens of the forms shown
 *   before sign-in (sign-in, second step, enrolment);
 * - the enrolment key: a random value set at an enrolment link's first use in
 *   this browser; the engine binds the enrolment to the browser whose key set
 *   the password, so the link alone, opened elsewhere, no longer shows the
 *   authenticator's secret nor signs anyone in.
 */
import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import { viaHttps } from "../middleware/client.ts";

const base = (ctx: Context) => (viaHttps(ctx) ? "__Host-" : "");
const SESSION = "cashier-console";
const PENDING = "cashier-console-pending";
const VISITOR = "cashier-console-visitor";
const ENROL = "cashier-console-enrol";

function set(ctx: Context, name: string, value: string, maxAgeMs?: number): void {
  ctx.cookies.set(`${base(ctx)}${name}`, value, {
    httpOnly: true,
    sameSite: "strict",
    secure: viaHttps(ctx),
    path: "/",
    overwrite: true,
    ...(maxAgeMs !== undefined ? { maxAge: maxAgeMs } : {}),
  });
}

function clear(ctx: Context, name: string): void {
  ctx.cookies.set(`${base(ctx)}${name}`, "", {
    httpOnly: true,
    sameSite: "strict",
    secure: viaHttps(ctx),
    path: "/",
    overwrite: true,
    maxAge: 0,
    expires: new Date(0),
  });
}

/** A cookie's value when it is a plausible token (URL-safe, bounded), else undefined. */
function get(ctx: Context, name: string): string | undefined {
  const v = ctx.cookies.get(`${base(ctx)}${name}`);
  return v && /^[A-Za-z0-9_.~-]{16,400}$/.test(v) ? v : undefined;
}

/** The session token, when the browser holds one. */
export const sessionToken = (ctx: Context) => get(ctx, SESSION);
/** A session cookie: no Max-Age, so it ends with the browser; the engine ends it after 15 idle minutes anyway. */
export const setSession = (ctx: Context, token: string) => set(ctx, SESSION, token);
export const clearSession = (ctx: Context) => clear(ctx, SESSION);

export interface PendingSignIn {
  token: string;
  login: string;
}

export function pendingSignIn(ctx: Context): PendingSignIn | undefined {
  const v = get(ctx, PENDING);
  const dot = v?.lastIndexOf(".") ?? -1;
  if (!v || dot < 1) return undefined;
  const login = Buffer.from(v.slice(dot + 1), "base64url").toString("utf8");
  return login ? { token: v.slice(0, dot), login } : undefined;
}

export function setPendingSignIn(ctx: Context, p: PendingSignIn, maxAgeMs: number): void {
  set(ctx, PENDING, `${p.token}.${Buffer.from(p.login, "utf8").toString("base64url")}`, maxAgeMs);
}

export const clearPendingSignIn = (ctx: Context) => clear(ctx, PENDING);

/** The visitor value, made and set on first use. */
export function visitor(ctx: Context): string {
  const existing = get(ctx, VISITOR);
  if (existing) return existing;
  const made = randomBytes(24).toString("base64url");
  set(ctx, VISITOR, made);
  return made;
}

/** This browser's enrolment key, made and set on first use (a session cookie: a new browser is a new key). */
export function enrolmentKey(ctx: Context): string {
  const existing = get(ctx, ENROL);
  if (existing) return existing;
  const made = randomBytes(32).toString("base64url");
  set(ctx, ENROL, made);
  return made;
}
