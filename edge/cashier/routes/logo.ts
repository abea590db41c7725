/**
 * `GET /cashier/logo/<sha256>.png`: a frontend's logo (docs/cashier.md, Logo), read from the engine
 * (CashierService.GetBrandLogo; the edge holds no database). Its address is its content's SHA-256, so it never
 * changes: browsers and shared caches keep it a year without asking again. The engine checked it as a PNG at save;
 * nosniff keeps a browser from reading it as anything else.
 */
import type Router from "@koa/router";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { CashierService } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";

/** A year, and never revalidated: the address names the bytes. */
export const LOGO_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** GET (and HEAD) /cashier/logo/:file; a name that is not a SHA-256 or a logo the engine does not hold is 404. */
export function logoRoutes(router: Router, deps: { cashier: Client<typeof CashierService> }): void {
  router.get("/cashier/logo/:file", async (ctx) => {
    const m = /^([0-9a-f]{64})\.png$/.exec(ctx.params.file ?? "");
    ctx.set("X-Content-Type-Options", "nosniff");
    if (!m) {
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.body = "Not found";
      return;
    }
    try {
      const res = await deps.cashier.getBrandLogo({ sha256: m[1] });
      ctx.set({ "Content-Type": "image/png", "Cache-Control": LOGO_CACHE_CONTROL, "Cross-Origin-Resource-Policy": "same-origin" });
      ctx.status = 200;
      ctx.body = Buffer.from(res.png);
    } catch (err) {
      if (!(err instanceof ConnectError) || err.code !== Code.NotFound) throw err;
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.body = "Not found";
    }
  });
}
