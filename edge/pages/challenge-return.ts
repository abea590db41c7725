/**
 * Where a real acquirer sends the customer back after its own 3-D Secure page: `GET /3ds/{traceId}/{mac}/return`,
 * the challenge's own address (Cashier's return URL given to the acquirer with the charge). The edge hands the
 * acquirer's query parameters (Adyen's redirectResult, Checkout.com's cko-session-id) to the engine as they came
 * (EngineService.ReturnFromChallenge), which asks the acquirer for the verdict; the customer then goes on to the
 * order's return_url with a 303, as after the simulators' page. Failures are the challenge's HTML pages.
 */
import type Router from "@koa/router";
import type { Context } from "koa";

/** At most this many parameters on a return: an acquirer sends one or two. */
const MAX_PARAMS = 20;

/**
 * The acquirer's parameters, each name once (a repeated one is not an acquirer's and is refused), or undefined
 * when they are not of a shape any acquirer sends.
 */
export function returnParams(search: URLSearchParams): Record<string, string> | undefined {
  // No prototype: a parameter named __proto__ is a parameter like any other.
  const params: Record<string, string> = Object.create(null);
  let count = 0;
  for (const [name, value] of search) {
    if (Object.hasOwn(params, name) || ++count > MAX_PARAMS) return undefined;
    params[name] = value;
  }
  return params;
}

/** The route's handler, given the challenge page's own helpers (challenge.ts), which share its pages and refusals. */
export interface ReturnHandlers {
  /** Answers the customer back from the acquirer with these parameters. */
  answer(ctx: Context, traceId: string | undefined, mac: string | undefined, params: Record<string, string> | undefined): Promise<void>;
}

/** Registers the return route. */
export function challengeReturnRoute(router: Router, handlers: ReturnHandlers): void {
  router.get("/3ds/:traceId/:mac/return", async (ctx) => {
    await handlers.answer(ctx, ctx.params.traceId, ctx.params.mac, returnParams(new URLSearchParams(ctx.querystring)));
  });
}
