/**
 * The client of each request, computed once at the top of the edge's and the
 * Backoffice's apps (edge/pages/kit/forwarded.ts: forwarding headers believed
 * from CASHIER_TRUSTED_PROXIES only) and read through the two functions below
 * wherever a client is keyed or recorded (rate limits, the audit address, the
 * access log) and wherever TLS matters (HSTS, Secure cookies). Koa's own
 * `ctx.ip` is set to the same address, so nothing can read another; its
 * `app.proxy` stays off, as it would believe any peer's headers.
 */
import type { TLSSocket } from "node:tls";
import type { Context, Next } from "koa";
import { type Client, forwardedClient, type ProxyTrust } from "../pages/kit/forwarded.ts";

function computed(ctx: Context, trust: ProxyTrust): Client {
  const socket = ctx.req.socket as Partial<TLSSocket> | undefined;
  return forwardedClient(
    { address: socket?.remoteAddress, encrypted: socket?.encrypted === true },
    { forwardedFor: ctx.req.headers["x-forwarded-for"], forwardedProto: ctx.req.headers["x-forwarded-proto"] },
    trust,
  );
}

/** Outermost middleware: the request's client, on ctx.state.client. */
export function identifyClient(trust: ProxyTrust) {
  return async (ctx: Context, next: Next) => {
    const client = computed(ctx, trust);
    ctx.state.client = client;
    ctx.request.ip = client.address;
    // HTTPS at the proxy over a plain hop to us: the cookie library must let Secure cookies out.
    if (client.protocol === "https") ctx.cookies.secure = true;
    return next();
  };
}

/** The request's client (without the middleware, as in a bare test app: the socket's peer, no proxy believed). */
export function clientOf(ctx: Context): Client {
  return (ctx.state.client as Client | undefined) ?? computed(ctx, []);
}

/** The client's IP address: the key of rate limits, the address audited and logged. */
export const clientAddress = (ctx: Context): string => clientOf(ctx).address;

/** The client reached us over HTTPS (its own socket, or a trusted proxy's X-Forwarded-Proto): HSTS, Secure cookies. */
export const viaHttps = (ctx: Context): boolean => clientOf(ctx).protocol === "https";
