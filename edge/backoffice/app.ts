/**
 * The Backoffice console as a Koa app: built here, never listening by itself
 * (server.ts does). It has no database: every page is drawn from the
 * engine's console services, which authenticate the operator on each call
 * and check role and merchant scope. Unknown paths are an HTML 404 with the
 * console's headers; errors never show a stack.
 */
import Router from "@koa/router";
import Koa from "koa";
import { clientAddress, identifyClient } from "../middleware/client.ts";
import { createCsrf, csrfKeyFrom } from "../pages/kit/csrf.ts";
import { proxyTrust } from "../pages/kit/forwarded.ts";
import { consoleAssetRoutes } from "./assets.ts";
import { hostCheck } from "./host-check.ts";
import type { BackofficeClient } from "./engine-client.ts";
import { DEFAULT_SIGN_IN_LIMIT, type SignInLimit, signInLimiter } from "./rate-limit.ts";
import { pageKit, sendPage } from "./request.ts";
import { gateRoutes } from "./routes/gate.ts";
import { consoleRoutes } from "./routes/index.ts";
import { messagePage } from "./views/gate.ts";

export interface ConsoleLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface BackofficeAppOptions {
  client: BackofficeClient;
  /** The console's bearer token: its CSRF key is derived from it. */
  token: string;
  log: ConsoleLogger;
  /** BACKOFFICE_PUBLIC_URL, when the console is reached under another name than its Host header says. */
  publicUrl?: string;
  /** CASHIER_TRUSTED_PROXIES: whose X-Forwarded-For and X-Forwarded-Proto are believed (none by default). */
  trustedProxies?: readonly string[];
  signInLimit?: SignInLimit;
}

export function buildBackofficeApp(opts: BackofficeAppOptions): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const deps = {
    client: opts.client,
    log: opts.log,
    csrf: createCsrf(csrfKeyFrom(`backoffice:${opts.token}`)),
    publicOrigin: opts.publicUrl ? new URL(opts.publicUrl).origin : undefined,
    limiter: signInLimiter(opts.signInLimit ?? DEFAULT_SIGN_IN_LIMIT),
  };
  const router = new Router();
  consoleAssetRoutes(router);
  router.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: 0, description: "ok" };
  });
  gateRoutes(router, deps);
  consoleRoutes(router, deps);

  // First: the sign-in limit, the audited address, the access line, cookies and HSTS read the client as it names it.
  app.use(identifyClient(proxyTrust(opts.trustedProxies ?? [])));
  app.use(async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        const kit = pageKit(ctx);
        const t = kit.tr.t;
        sendPage(
          ctx,
          kit,
          404,
          messagePage(kit, { title: t("bo.error.notFound.title"), body: t("bo.error.notFound.body"), link: { href: "/", label: t("bo.nav.dashboard") } }),
        );
      }
    } catch (err) {
      opts.log.error({ err, path: ctx.path }, "console request failed");
      const kit = pageKit(ctx);
      sendPage(ctx, kit, 500, messagePage(kit, { title: kit.tr.t("bo.error.failed.title"), body: kit.tr.t("bo.error.failed.body") }));
    } finally {
      // Paths only: enrolment tokens are capabilities and never reach a log.
      opts.log.info(
        {
          method: ctx.method,
          path: ctx.path.replace(/^\/enrol\/[^/]+/, "/enrol/[token]"),
          http: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ip: clientAddress(ctx),
        },
        "console request",
      );
    }
  });
  // After the access log, so that a refused Host (a rebinding attempt) is logged like any request.
  app.use(hostCheck(deps.publicOrigin));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
