/**
 * The frame of every signed-in page: the session is checked with the engine
 * (GetConsoleSession, which also counts as activity), the operator and the
 * actions its role allows are handed to the page, forms are read and their
 * CSRF token checked, and every refusal becomes the right page: an ended
 * session goes back to sign-in saying why, a denied action is a 403, an
 * unknown or out-of-scope object a 404, an engine out of reach a 503.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import type { ConsoleContext } from "../../../gen/cashier/admin/v1/console_pb.js";
import type { ConsoleSession } from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { OperatorRole } from "../../../gen/cashier/admin/v1/operator_pb.js";
import type { Html } from "../../pages/kit/html.ts";
import { clearSession, sessionToken } from "../cookies.ts";
import type { BackofficeClient } from "../engine-client.ts";
import type { ConsoleRefusal } from "../refusal.ts";
import { consoleRefusal, invalidText } from "../refusal.ts";
import { type ConsoleDeps, consoleContext, formIsOurs, pageKit, type PageKit, seeOther, sendPage } from "../request.ts";
import { messagePage } from "../views/gate.ts";
import { consoleLayout } from "../views/layout.ts";
import { type OperatorView, type Role, type Section, SECTION_ACTION } from "../views/model.ts";
import { type MultipartFile, readMultipart } from "../../middleware/multipart-body.ts";
import { readConsoleForm } from "./forms.ts";

export interface PageDeps extends ConsoleDeps {
  client: BackofficeClient;
  log: { error(obj: object, msg: string): void };
}

const ROLES: Readonly<Record<number, Role>> = {
  [OperatorRole.VIEWER]: "viewer",
  [OperatorRole.SUPPORT]: "support",
  [OperatorRole.PAYOUTS]: "payouts",
  [OperatorRole.ADMIN]: "admin",
};

export function operatorView(session: ConsoleSession): OperatorView {
  const actions = new Set(session.allowedActions);
  const op = session.operator;
  return {
    login: op?.login ?? "",
    role: ROLES[op?.role ?? 0] ?? "viewer",
    merchants: op?.merchantIds ?? [],
    sections: (Object.keys(SECTION_ACTION) as Exclude<Section, "account">[]).filter((s) => actions.has(SECTION_ACTION[s])),
    actions,
  };
}

/** A signed-in request: its kit, operator, CSRF token for its forms and the context for engine calls. */
export interface SignedIn {
  kit: PageKit;
  operator: OperatorView;
  csrf: string;
  context: ConsoleContext;
  /** Renders a page of `section` in the console's frame. */
  render(section: Section, title: string, body: Html, scripts?: readonly ("chart" | "webauthn")[], style?: string): Html;
}

/** A refusal as a page (or, for an ended session, back to sign-in). */
export function refusalPage(ctx: Context, kit: PageKit, refusal: ConsoleRefusal, log: PageDeps["log"], err: unknown, operator?: OperatorView, csrf?: string) {
  const t = kit.tr.t;
  const page = (status: number, title: string, body: string) => sendPage(ctx, kit, status, messagePage({ ...kit, operator, csrf }, { title, body }));
  switch (refusal.kind) {
    case "session-ended":
      clearSession(ctx);
      return seeOther(ctx, "/signin?m=idle");
    case "session-required":
      clearSession(ctx);
      return seeOther(ctx, "/signin");
    case "denied":
      return page(403, t("bo.error.denied.title"), t("bo.error.denied.body"));
    case "not-found":
    case "enrolment-invalid":
      return page(404, t("bo.error.notFound.title"), t("bo.error.notFound.body"));
    case "invalid":
      return page(400, t("kit.refused.heading"), invalidText(refusal));
    case "refused":
    case "four-eyes-same-operator":
    case "four-eyes-issued-access":
      return page(409, t("kit.refused.heading"), refusal.message);
    case "rate-limited":
      return page(429, t("kit.refused.heading"), t("bo.signin.limited", { seconds: 60 }));
    case "unavailable":
      return page(503, t("bo.error.unavailable.title"), t("bo.error.unavailable.body"));
    default:
      log.error({ err, path: ctx.path }, "console page failed");
      return page(500, t("bo.error.failed.title"), t("bo.error.failed.body"));
  }
}

/** The signed-in operator of this request, or undefined after answering (to sign-in, or a refusal page). */
export async function signedIn(ctx: Context, deps: PageDeps): Promise<SignedIn | undefined> {
  const kit = pageKit(ctx);
  const token = sessionToken(ctx);
  if (!token) {
    seeOther(ctx, "/signin");
    return undefined;
  }
  const context = consoleContext(ctx, deps, token);
  try {
    const { session } = await deps.client.auth.getConsoleSession({ context });
    const operator = operatorView(session!);
    const csrf = deps.csrf.token(token);
    return {
      kit,
      operator,
      csrf,
      context,
      render: (section, title, body, scripts, style) => consoleLayout({ tr: kit.tr, nonce: kit.nonce, title, body, operator, csrf, section, scripts, style }),
    };
  } catch (err) {
    refusalPage(ctx, kit, consoleRefusal(err), deps.log, err);
    return undefined;
  }
}

/** A GET page of the console: `draw` returns the page; refusals of its engine calls become pages. */
export function consoleGet(router: Router, path: string, deps: PageDeps, draw: (ctx: Context, s: SignedIn) => Promise<Html | undefined>): void {
  router.get(path, async (ctx) => {
    const s = await signedIn(ctx, deps);
    if (!s) return;
    try {
      const page = await draw(ctx, s);
      if (page) sendPage(ctx, s.kit, 200, page);
    } catch (err) {
      refusalPage(ctx, s.kit, consoleRefusal(err), deps.log, err, s.operator, s.csrf);
    }
  });
}

/** An export whose filters are not understood: 400, naming them, and no file. */
export function refuseFilters(ctx: Context, s: SignedIn, bad: string[]): void {
  refuseSearch(ctx, s, s.kit.tr.t("bo.search.badFilters", { fields: bad.join(", ") }));
}

/** A search or an export refused for what it was asked, said in `body`: 400, nothing read. */
export function refuseSearch(ctx: Context, s: SignedIn, body: string): void {
  sendPage(ctx, s.kit, 400, messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: s.kit.tr.t("kit.refused.heading"), body }));
}

/** A form POST of the console: read, CSRF-checked, then `act` (which answers, usually with a 303). */
export function consolePost(router: Router, path: string, deps: PageDeps, act: (ctx: Context, s: SignedIn, form: URLSearchParams) => Promise<void>): void {
  consolePostRead(router, path, deps, readConsoleForm, (ctx, s, read) => act(ctx, s, read.form));
}

/** A multipart form POST of the console (the branding form's logo): read within its bound, CSRF-checked as any other. */
export function consoleUpload(
  router: Router,
  path: string,
  deps: PageDeps,
  act: (ctx: Context, s: SignedIn, form: URLSearchParams, file: MultipartFile | undefined) => Promise<void>,
): void {
  consolePostRead<{ ok: true; form: URLSearchParams; file?: MultipartFile }>(router, path, deps, readMultipart, (ctx, s, read) =>
    act(ctx, s, read.form, read.file),
  );
}

type FormRead<R> = (ctx: Context) => Promise<R | { ok: false; http: number; text: string }>;

function consolePostRead<R extends { ok: true; form: URLSearchParams }>(
  router: Router,
  path: string,
  deps: PageDeps,
  readForm: FormRead<R>,
  act: (ctx: Context, s: SignedIn, read: R) => Promise<void>,
): void {
  router.post(path, async (ctx) => {
    const read = await readForm(ctx);
    const s = await signedIn(ctx, deps);
    if (!s) return;
    const t = s.kit.tr.t;
    if (!read.ok)
      return sendPage(
        ctx,
        s.kit,
        read.http,
        messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: t("kit.refused.heading"), body: read.text }),
      );
    if (!formIsOurs(ctx, deps, read.form)) {
      return sendPage(
        ctx,
        s.kit,
        403,
        messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: t("kit.refused.heading"), body: t("bo.error.csrf") }),
      );
    }
    try {
      await act(ctx, s, read);
    } catch (err) {
      refusalPage(ctx, s.kit, consoleRefusal(err), deps.log, err, s.operator, s.csrf);
    }
  });
}
