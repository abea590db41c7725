/**
 * The hosted 3-D Secure challenge page at the redirect_url of a `pending_async`
 * sale: GET shows it (EngineService.GetChallenge), POST answers it
 * (CompleteChallenge) and sends the customer back to the merchant's return_url
 * with a 303. A real acquirer's challenge is its own page: GET sends the
 * customer on there with a 303 while it is open (no script needed, and in the
 * hosted Cashier's frame as in a tab), and the acquirer sends the customer back
 * to the return route (challenge-return.ts). Failures are HTML pages, never the
 * JSON wire nor a stack trace.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { Code, ConnectError } from "@connectrpc/connect";
import { ChallengeState, type GetChallengeResponse } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import type { EdgeLogger } from "../logger.ts";
import type { EngineClient } from "../engine-client.ts";
import { viaHttps } from "../middleware/client.ts";
import { refusalOf } from "../middleware/errors.ts";
import { readForm } from "../middleware/form-body.ts";
import { MAX_FORM_BYTES } from "../middleware/form-body.ts";
import { expiredPage, finishedPage, kitFor, notFoundPage, openPage, pageHeaders, refusalPage, refusedPage, type Page, type PageKit } from "./challenge-html.ts";
import { chooseLocale } from "./kit/locale.ts";
import { declaredParent } from "./kit/security.ts";
import { traceIdOf } from "../wire/ids.ts";
import { challengeReturnRoute } from "./challenge-return.ts";

interface Target {
  traceId: number;
  mac: string;
}

/** The two path segments, or undefined when they cannot name any challenge (a 404 without asking the engine). */
function targetOf(params: Record<string, string | undefined>): Target | undefined {
  const { traceId, mac } = params;
  const id = traceIdOf(traceId);
  if (id === undefined || !mac || !/^[A-Za-z0-9_-]{1,128}$/.test(mac)) return undefined;
  return { traceId: id, mac };
}

/** The customer's language (a challenge has no session: the browser's, else English) and a fresh nonce. */
function kitOf(ctx: Context): PageKit {
  return kitFor(chooseLocale({ acceptLanguage: ctx.get("accept-language") }));
}

function send(ctx: Context, page: Page, returnUrl = "", frameAncestors: readonly string[] = []): void {
  ctx.status = page.http;
  ctx.set(pageHeaders(returnUrl, page.nonce, viaHttps(ctx), frameAncestors));
  ctx.set("Vary", "Accept-Language");
  ctx.body = page.html;
}

function pageOf(challenge: GetChallengeResponse, kit: PageKit): Page {
  switch (challenge.state) {
    case ChallengeState.OPEN:
      return openPage(
        {
          orderId: challenge.orderId,
          amountMinor: challenge.amount?.amountMinor ?? 0n,
          currency: challenge.amount?.currency ?? "",
          maskedCard: challenge.card?.maskedNumber ?? "",
        },
        kit,
      );
    case ChallengeState.FINISHED:
      return finishedPage(challenge.returnUrl, kit);
    case ChallengeState.EXPIRED:
      return expiredPage(challenge.returnUrl, kit);
    default:
      return refusalPage("INTERNAL", kit);
  }
}

/** A Location header value: the return_url exactly as given when it is plain ASCII, else its serialized form. */
function location(url: string): string {
  return /^[\x21-\x7e]+$/.test(url) ? url : new URL(url).href;
}

/** An acquirer's page the customer may be sent to: an http(s) address, else none (the page is shown instead). */
export function acquirerTarget(url: string): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A 303 to `url`, as no page is shown: the customer goes on at once. */
function seeOther(ctx: Context, url: string): void {
  ctx.status = 303;
  ctx.set({ Location: location(url), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  ctx.body = "";
}

export function challengeRoutes(router: Router, engine: EngineClient, log: EdgeLogger): void {
  const refuse = (ctx: Context, err: unknown) => {
    const page = refusalPage(refusalOf(err).reason, kitOf(ctx));
    if (page.http >= 500) log.error({ err, path: "/3ds" }, "challenge page failed");
    send(ctx, page);
  };

  /**
   * The challenge's page. `fromAcquirer`: the customer is back from the acquirer's page, so an open challenge is not
   * sent there again (the acquirer may send the customer straight back: a loop); its page leads to the return_url.
   */
  const show = async (ctx: Context, target: Target, fromAcquirer = false) => {
    try {
      const challenge = await engine.getChallenge(target);
      // An open challenge at a real acquirer is answered on the acquirer's page.
      const acquirer = challenge.state === ChallengeState.OPEN ? acquirerTarget(challenge.acquirerUrl) : undefined;
      if (acquirer && fromAcquirer) return send(ctx, finishedPage(challenge.returnUrl, kitOf(ctx)), challenge.returnUrl, challenge.allowedOrigins);
      if (acquirer) return seeOther(ctx, acquirer);
      // Framed by the Cashier's parent (its address carries `?parent=`, and the forms post back to it): events as the Cashier's pages.
      const kit = { ...kitOf(ctx), parentOrigin: declaredParent(ctx.query.parent, challenge.allowedOrigins) };
      send(ctx, pageOf(challenge, kit), challenge.returnUrl, challenge.allowedOrigins);
    } catch (err) {
      refuse(ctx, err);
    }
  };

  router.get("/3ds/:traceId/:mac", async (ctx) => {
    const target = targetOf(ctx.params);
    if (!target) return send(ctx, notFoundPage(kitOf(ctx)));
    await show(ctx, target);
  });

  router.post("/3ds/:traceId/:mac", async (ctx) => {
    const target = targetOf(ctx.params);
    if (!target) {
      ctx.req.resume();
      return send(ctx, notFoundPage(kitOf(ctx)));
    }
    const read = await readForm(ctx);
    if (!read.ok) {
      const refused =
        read.http === 413
          ? refusedPage(413, "kit.refused.formSize", { bytes: MAX_FORM_BYTES }, kitOf(ctx))
          : read.http === 408
            ? refusedPage(408, "kit.refused.formSlow", {}, kitOf(ctx))
            : refusedPage(415, "kit.refused.formType", {}, kitOf(ctx));
      return send(ctx, refused);
    }
    const results = read.form.getAll("result");
    const result = results.length === 1 ? results[0] : undefined;
    if (result !== "approve" && result !== "fail") {
      return send(ctx, refusedPage(400, "challenge.refused.result", {}, kitOf(ctx)));
    }
    try {
      const done = await engine.completeChallenge({ ...target, passed: result === "approve" });
      if (!done.returnUrl) return send(ctx, finishedPage("", kitOf(ctx)));
      seeOther(ctx, done.returnUrl);
    } catch (err) {
      // Already answered or expired: show the page as it now stands.
      if (ConnectError.from(err).code === Code.FailedPrecondition) return show(ctx, target);
      refuse(ctx, err);
    }
  });

  challengeReturnRoute(router, {
    async answer(ctx, traceId, mac, params) {
      const target = targetOf({ traceId, mac });
      if (!target) return send(ctx, notFoundPage(kitOf(ctx)));
      if (!params) return send(ctx, refusedPage(400, "challenge.refused.result", {}, kitOf(ctx)));
      try {
        const done = await engine.returnFromChallenge({ ...target, params });
        if (!done.returnUrl) return send(ctx, finishedPage("", kitOf(ctx)));
        seeOther(ctx, done.returnUrl);
      } catch (err) {
        // Already answered (the acquirer's webhook was first) or expired: the page as it now stands, never a loop
        // back to the acquirer (show sends there only while the challenge is open).
        if (ConnectError.from(err).code === Code.FailedPrecondition) return show(ctx, target, true);
        refuse(ctx, err);
      }
    },
  });
}
