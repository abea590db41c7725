/**
 * `Cache-Control: no-store` on every answer of the API (`/api/...`): a Process
 * or session reply is one customer's transaction, signed for one request, and
 * no cache or proxy between the platform and Cashier may keep or replay it.
 * Set before the route runs, so refusals and errors carry it too.
 */
import type { Middleware } from "koa";

export function noStoreOnApi(): Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith("/api/")) ctx.set("Cache-Control", "no-store");
    await next();
  };
}
