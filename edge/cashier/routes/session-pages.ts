/**
 * Loading a session's page: the token from the path, the session from the
 * engine (an ended one shows only that), the declared parent checked against
 * the frontend's allowed_origins; and guarding a form post: rate limits, the
 * form body, the session token and CSRF token it carries.
 */
import type { Context } from "koa";
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { CSRF_FIELD, SESSION_FIELD } from "../../pages/kit/csrf.ts";
import { clientAddress } from "../../middleware/client.ts";
import { MAX_FORM_BYTES, readForm } from "../../middleware/form-body.ts";
import { declaredParent } from "../../pages/kit/security.ts";
import { isToken } from "../paths.ts";
import { noticePage, refusedPage } from "../views/notice.ts";
import type { PageContext, SessionFrame } from "../views/page.ts";
import { type CashierDeps, PROVEN_PARENT, pageContext, refuse, send } from "./respond.ts";

export interface Loaded {
  frame: SessionFrame;
  c: PageContext;
}

/** The page's session, or undefined once the refusal is sent. */
export async function loadSession(ctx: Context, deps: CashierDeps): Promise<Loaded | undefined> {
  const token = ctx.params.session;
  if (!isToken(token)) {
    send(ctx, noticePage(pageContext(ctx), "notFound"));
    return undefined;
  }
  try {
    const { session } = await deps.cashier.getCashierSession({ sessionToken: token });
    return frameOf(ctx, token, session!);
  } catch (err) {
    refuse(ctx, deps, err);
    return undefined;
  }
}

export function frameOf(ctx: Context, token: string, session: CashierSession): Loaded {
  const parent = declaredParent(ctx.query.parent, session.frontendSettings?.allowedOrigins ?? []);
  return { frame: { session, sessionToken: token, parent }, c: pageContext(ctx, session) };
}

/** A form post's body once it passed the limits, the size and type checks and the CSRF check; else undefined (refusal sent). */
export async function guardedForm(ctx: Context, deps: CashierDeps): Promise<URLSearchParams | undefined> {
  const token = ctx.params.session;
  if (!isToken(token)) {
    ctx.req.resume();
    send(ctx, noticePage(pageContext(ctx), "notFound"));
    return undefined;
  }
  const wait = (await deps.limiters.submitsPerAddress.hit(clientAddress(ctx))) ?? (await deps.limiters.submitsPerSession.hit(token));
  if (wait !== undefined) {
    ctx.req.resume();
    send(ctx, noticePage(pageContext(ctx), "tooMany", { seconds: wait }));
    return undefined;
  }
  const read = await readForm(ctx);
  if (!read.ok) {
    send(
      ctx,
      read.http === 413
        ? refusedPage(pageContext(ctx), 413, "kit.refused.formSize", { bytes: MAX_FORM_BYTES })
        : read.http === 408
          ? refusedPage(pageContext(ctx), 408, "kit.refused.formSlow")
          : refusedPage(pageContext(ctx), 415, "kit.refused.formType"),
    );
    return undefined;
  }
  const form = read.form;
  if (form.get(SESSION_FIELD) !== token || !deps.csrf.verify(token, form.get(CSRF_FIELD))) {
    send(ctx, refusedPage(pageContext(ctx), 403, "kit.refused.csrf"));
    return undefined;
  }
  // The parent the form's page was framed by, as its token proves it: the answer, should the session have ended
  // meanwhile, may then be framed by it and tell it so (respond.ts, refuse).
  const proven = deps.csrf.provenParent(token, form.get(CSRF_FIELD), ctx.query.parent);
  if (proven) ctx.state[PROVEN_PARENT] = proven;
  return form;
}

/** The value of a single-valued field ("" when absent or sent twice). */
export function one(form: URLSearchParams, name: string): string {
  const all = form.getAll(name);
  return all.length === 1 ? all[0] : "";
}
