/**
 * GET /cashier/autologin/<token>[?parent=<origin>]: the one-time address
 * StartSession hands out. Redeemed once (RedeemAutologin), it sends the
 * browser on with a 303 to the session's page, whose path carries the
 * browser session; opened again, late or guessed, it says only that the link
 * cannot be used. Unusable links count against the client address
 * (rate-limits.ts). A HEAD (a link preview) redeems nothing, nor does a
 * frame the frontend does not allow: the browser would not show the page.
 */
import type Router from "@koa/router";
import { SessionIntent } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { declaredParent, httpOrigin } from "../../pages/kit/security.ts";
import { intentPage, isToken, sessionPath } from "../paths.ts";
import { noticePage } from "../views/notice.ts";
import { clientAddress } from "../../middleware/client.ts";
import { type CashierDeps, noticeOf, pageContext, refuse, seeOther, send } from "./respond.ts";

/** Sec-Fetch-Dest values of a page loaded inside another: the frontend's allowed_origins must allow it. */
const FRAMED = new Set(["iframe", "frame", "embed", "object"]);

export function autologinRoutes(router: Router, deps: CashierDeps): void {
  router.get("/cashier/autologin/:token", async (ctx) => {
    const wait = await deps.limiters.autologinGuesses.check(clientAddress(ctx));
    if (wait !== undefined) return send(ctx, noticePage(pageContext(ctx), "tooMany", { seconds: wait }));
    if (ctx.method === "HEAD") {
      ctx.status = 204;
      ctx.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
      return;
    }
    const token = ctx.params.token;
    if (!isToken(token)) {
      await deps.limiters.autologinGuesses.hit(clientAddress(ctx));
      return send(ctx, noticePage(pageContext(ctx), "autologin"));
    }
    try {
      // A frame is told apart by the browser's own header; the framing page by its Referer (the engine judges both).
      const dest = ctx.get("sec-fetch-dest");
      const redeemed = await deps.cashier.redeemAutologin({
        autologinToken: token,
        requesterIp: clientAddress(ctx),
        framed: FRAMED.has(dest),
        framingOrigin: httpOrigin(ctx.get("referer")) ?? "",
      });
      const session = redeemed.session!;
      const allowed = session.frontendSettings?.allowedOrigins ?? [];
      const fields = session.intent === SessionIntent.FIELDS;
      // The hosted payment fields live only in a frame: without a declared parent, the framing page the browser
      // named (its Referer's origin, when one of allowed_origins) is the one its token goes to.
      const parent =
        declaredParent(ctx.query.parent, allowed) ?? (fields && FRAMED.has(dest) ? declaredParent(httpOrigin(ctx.get("referer")), allowed) : undefined);
      const page = intentPage(session.intent);
      seeOther(ctx, sessionPath(redeemed.sessionToken, page, parent));
    } catch (err) {
      // A refused frame counts too: it tells a link is unused without using it, so it is rationed like a guess.
      const notice = noticeOf(err);
      if (notice === "autologin" || notice === "notAllowed") await deps.limiters.autologinGuesses.hit(clientAddress(ctx));
      refuse(ctx, deps, err);
    }
  });
}
