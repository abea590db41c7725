/**
 * The hosted 3-D Secure challenge page at the redirect_url of a `pending_async`
 * sale: GET shows it (EngineService.GetChallenge), POST answers it
 * (CompleteChallenge) and sends the customer back to the merchant's return_url
 * with a 303. Failures are HTML pages, never the JSON wire nor a stack trace.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { Code, ConnectError } from "@connectrpc/connect";
import { ChallengeState, type GetChallengeResponse } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import type { EdgeLogger } from "../app.ts";
import type { EngineClient } from "../engine-client.ts";
import { refusalOf } from "../middleware/errors.ts";
import { readForm } from "../middleware/form-body.ts";
import { expiredPage, finishedPage, notFoundPage, openPage, pageHeaders, refusalPage, refusedPage, type Page } from "./challenge-html.ts";

const MAX_TRACE_ID = 2 ** 31 - 1;

interface Target {
  traceId: number;
  mac: string;
}

/** The two path segments, or undefined when they cannot name any challenge (a 404 without asking the engine). */
function targetOf(params: Record<string, string | undefined>): Target | undefined {
  const { traceId, mac } = params;
  if (!traceId || !/^[1-9][0-9]{0,9}$/.test(traceId) || Number(traceId) > MAX_TRACE_ID) return undefined;
  if (!mac || !/^[A-Za-z0-9_-]{1,128}$/.test(mac)) return undefined;
  return { traceId: Number(traceId), mac };
}

function send(ctx: Context, page: Page, returnUrl = ""): void {
  ctx.status = page.http;
  ctx.set(pageHeaders(returnUrl));
  ctx.body = page.html;
}

function pageOf(challenge: GetChallengeResponse): Page {
  switch (challenge.state) {
    case ChallengeState.OPEN:
      return openPage({
        orderId: challenge.orderId,
        amountMinor: challenge.amount?.amountMinor ?? 0n,
        currency: challenge.amount?.currency ?? "",
        maskedCard: challenge.card?.maskedNumber ?? "",
      });
    case ChallengeState.FINISHED:
      return finishedPage(challenge.returnUrl);
    case ChallengeState.EXPIRED:
      return expiredPage(challenge.returnUrl);
    default:
      return refusalPage("INTERNAL");
  }
}

/** A Location header value: the return_url exactly as given when it is plain ASCII, else its serialized form. */
function location(url: string): string {
  return /^[\x21-\x7e]+$/.test(url) ? url : new URL(url).href;
}

export function challengeRoutes(router: Router, engine: EngineClient, log: EdgeLogger): void {
  const refuse = (ctx: Context, err: unknown) => {
    const page = refusalPage(refusalOf(err).reason);
    if (page.http >= 500) log.error({ err, path: "/3ds" }, "challenge page failed");
    send(ctx, page);
  };

  const show = async (ctx: Context, target: Target) => {
    try {
      const challenge = await engine.getChallenge(target);
      send(ctx, pageOf(challenge), challenge.returnUrl);
    } catch (err) {
      refuse(ctx, err);
    }
  };

  router.get("/3ds/:traceId/:mac", async (ctx) => {
    const target = targetOf(ctx.params);
    if (!target) return send(ctx, notFoundPage());
    await show(ctx, target);
  });

  router.post("/3ds/:traceId/:mac", async (ctx) => {
    const target = targetOf(ctx.params);
    if (!target) {
      ctx.req.resume();
      return send(ctx, notFoundPage());
    }
    const read = await readForm(ctx);
    if (!read.ok) return send(ctx, refusedPage(read.http, read.text));
    const results = read.form.getAll("result");
    const result = results.length === 1 ? results[0] : undefined;
    if (result !== "approve" && result !== "fail") {
      return send(ctx, refusedPage(400, "The field result must be approve or fail."));
    }
    try {
      const done = await engine.completeChallenge({ ...target, passed: result === "approve" });
      if (!done.returnUrl) return send(ctx, finishedPage(""));
      ctx.status = 303;
      ctx.set({ Location: location(done.returnUrl), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
      ctx.body = "";
    } catch (err) {
      // Already answered or expired: show the page as it now stands.
      if (ConnectError.from(err).code === Code.FailedPrecondition) return show(ctx, target);
      refuse(ctx, err);
    }
  });
}
