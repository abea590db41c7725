/**
 * The console answers only to names it is reached by: an IP address (v4, or
 * v6 in brackets), a name without a dot (`localhost`, a compose service such
 * as `backoffice` behind a proxy that keeps its own Host), or the host of
 * BACKOFFICE_PUBLIC_URL. Any other Host header gets 421 before a page or a
 * form is handled. A console bound to 127.0.0.1 is otherwise open to DNS
 * rebinding: a web page whose name (a public one, so with a dot) is made to
 * resolve to 127.0.0.1 would send an operator's browser to it under that
 * name, as its own origin, and could try sign-ins from there.
 */
import { isIP } from "node:net";
import type { Middleware } from "koa";

/** The host part of a Host header (no port; brackets kept off an IPv6 literal); "" when it has none. */
function hostname(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") > 0 ? h.indexOf("]") : undefined);
  // A fully qualified name may end in a dot: the same name.
  return h.replace(/:\d*$/, "").replace(/\.$/, "");
}

export function hostCheck(publicOrigin: string | undefined): Middleware {
  const publicHost = publicOrigin ? new URL(publicOrigin).hostname.toLowerCase().replace(/^\[|\]$/g, "") : undefined;
  return async (ctx, next) => {
    const name = hostname(ctx.get("host"));
    if (name !== "" && (isIP(name) !== 0 || !name.includes(".") || name === publicHost)) return next();
    ctx.status = 421;
    ctx.set("Cache-Control", "no-store");
    ctx.type = "text/plain";
    ctx.body = "This console answers only to its own address (BACKOFFICE_PUBLIC_URL, or an IP address).\n";
  };
}
