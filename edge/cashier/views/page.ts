/**
 * What every Cashier view returns, and the pieces they share: the response
 * (status, headers, HTML) built from the kit's layout and security headers,
 * the session's framing origins, the statuses as the interface writes them.
 */
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { ASSETS_OF_CASHIER } from "../assets.ts";
import { pageBrand } from "./brand.ts";
import type { Html } from "../../pages/kit/html.ts";
import type { Translator } from "../../pages/kit/i18n.ts";
import { layout } from "../../pages/kit/layout.ts";
import { httpOrigin, pageHeaders } from "../../pages/kit/security.ts";

/** One response of the Cashier. */
export interface CashierPage {
  http: number;
  headers: Record<string, string>;
  html: string;
}

/** One response's language, nonce and transport. */
export interface PageContext {
  tr: Translator;
  nonce: string;
  /** Served over TLS: HSTS. */
  tls: boolean;
  /** The session's frontend's allowed_origins when the session is known; a page of no known session is framed by none. */
  frameAncestors?: readonly string[];
}

/** The page of a session: framed only by its frontend's allowed_origins, events only to the declared parent. */
export interface SessionFrame {
  session: CashierSession;
  sessionToken: string;
  /** The declared parent origin, already checked against allowed_origins. */
  parent?: string;
}

export function sessionPage(
  c: PageContext,
  f: SessionFrame,
  p: { http?: number; title: string; body: Html; refreshWithoutScript?: number; goTo?: string },
): CashierPage {
  const allowed = f.session.frontendSettings?.allowedOrigins ?? [];
  const back = httpOrigin(f.session.returnUrl);
  return {
    http: p.http ?? 200,
    headers: pageHeaders({ nonce: c.nonce, frameAncestors: allowed, formTargets: back ? [back] : [], tls: c.tls, customerData: true }),
    html: layout({
      tr: c.tr,
      nonce: c.nonce,
      title: p.title,
      body: p.body,
      parentOrigin: f.parent,
      expiresIn: secondsLeft(f.session),
      scripts: [ASSETS_OF_CASHIER.form, ASSETS_OF_CASHIER.typing],
      refreshWithoutScript: p.refreshWithoutScript,
      goTo: p.goTo,
      brand: pageBrand(f.session.frontendSettings?.branding),
    }).value,
  };
}

/** Whole seconds until the session ends, from this edge's clock (0 once it has); undefined when the engine gave no end. */
export function secondsLeft(session: CashierSession, nowMs: number = Date.now()): number | undefined {
  if (!session.expireTime) return undefined;
  const endMs = Number(session.expireTime.seconds) * 1000 + Math.floor(session.expireTime.nanos / 1e6);
  return Math.max(0, Math.floor((endMs - nowMs) / 1000));
}

/**
 * A page with no customer data and no control (a used link, an error): framed
 * by the session's allowed_origins when the session is known, else by none (a
 * used or unknown autologin link names no frontend, and says nothing about one).
 */
export function plainPage(c: PageContext, p: { http: number; title: string; body: Html; headers?: Record<string, string>; parent?: string }): CashierPage {
  return {
    http: p.http,
    headers: { ...pageHeaders({ nonce: c.nonce, frameAncestors: c.frameAncestors ?? [], tls: c.tls, customerData: true }), ...p.headers },
    html: layout({ tr: c.tr, nonce: c.nonce, title: p.title, body: p.body, parentOrigin: p.parent }).value,
  };
}

/** Whether a status can still change (the result page keeps following it). */
export function isFinal(status: TransactionStatus): boolean {
  return status === TransactionStatus.APPROVED || status === TransactionStatus.DECLINED || status === TransactionStatus.CANCELLED;
}
