/** Every signed-in page of the console, each in its own file. */
import type Router from "@koa/router";
import type { PageDeps } from "./pages.ts";
import { homeRoutes } from "./home.ts";

export function consoleRoutes(router: Router, deps: PageDeps): void {
  homeRoutes(router, deps);
}
