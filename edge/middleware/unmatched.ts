/**
 * What @koa/router's allowedMethods() left unanswered, in the wire's error
 * shape: a path no route serves is 404 NO_ROUTE (whatever the method); a path
 * served under other methods is 405 METHOD_NOT_ALLOWED with the `Allow`
 * header allowedMethods() set, including for methods the router does not
 * implement at all (PROPFIND, TRACE), which allowedMethods() would answer 501.
 * OPTIONS on a served path stays allowedMethods()'s 200 with `Allow`.
 * Mount it outside router.routes() and router.allowedMethods().
 */
import type { Context, Next } from "koa";
import { redactPath } from "../cashier/paths.ts";
import { WireError } from "./errors.ts";

export function unmatched() {
  return async (ctx: Context, next: Next) => {
    await next();
    const allow = ctx.response.get("Allow");
    if ((ctx.status === 405 || ctx.status === 501) && allow !== "") {
      throw new WireError("METHOD_NOT_ALLOWED", `${ctx.method} is not allowed on ${redactPath(ctx.path)}; allowed: ${allow}`);
    }
    if (ctx.status === 501 || (ctx.status === 404 && ctx.body === undefined)) {
      ctx.remove("Allow");
      // A session's or a link's token in the path is not said back: the reply may be logged or shown elsewhere.
      throw new WireError("NO_ROUTE", `no route ${ctx.method} ${redactPath(ctx.path)}`);
    }
  };
}
