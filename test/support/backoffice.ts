/**
 * The Backoffice console for a test: started on a free loopback port beside a
 * service of test/support/service.ts, calling its engine with the
 * Backoffice's token (the service token while the engine has none of its
 * own), logging into the service's log file. Plus the operator helpers the
 * console's tests share: an operator created through AdminService, enrolled
 * through the console's own pages over HTTP, TOTP codes computed with
 * otpauth as an authenticator app would, and a browser page signed in as one.
 */
import pino from "pino";
import * as OTPAuth from "otpauth";
import type { Browser, Page } from "playwright-core";
import type { Test } from "tap";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { startBackoffice, type BackofficeHandle } from "../../edge/backoffice/server.ts";
import type { SignInLimit } from "../../edge/backoffice/rate-limit.ts";
import { SERVICE_TOKEN, type Service } from "./service.ts";

export interface ConsoleOptions {
  signInLimit?: SignInLimit;
  tls?: { cert: string | Buffer; key: string | Buffer };
  publicUrl?: string;
}

/** The token the console presents: the engine's own Backoffice token when it has one. */
export function backofficeToken(svc: Service): string {
  return (svc.engine as { backofficeToken?: string }).backofficeToken ?? SERVICE_TOKEN;
}

export async function startConsole(svc: Service, opts: ConsoleOptions = {}): Promise<BackofficeHandle> {
  const log = createLogger("debug", pino.destination({ dest: svc.logFile, sync: true, append: true })).child({ process: "backoffice" });
  return startBackoffice({
    port: 0,
    host: "127.0.0.1",
    engineUrl: svc.engineUrl,
    token: backofficeToken(svc),
    log,
    ...opts,
  });
}

/** The code of a base32 TOTP secret at `now` (the engine's clock when a test moves it), as an authenticator app shows it. */
export function totpCode(secretBase32: string, now: Date = new Date()): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secretBase32.replace(/\s+/g, "")), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: now.getTime() });
}

/** Creates an operator through AdminService (as `npm run operator -- create` does); its enrolment token. */
export async function createOperator(
  svc: Service,
  login: string,
  role: "viewer" | "support" | "payouts" | "admin",
  merchantIds: string[] = [],
): Promise<string> {
  const roles = { viewer: 1, support: 2, payouts: 3, admin: 4 } as const;
  const res = await svc.admin.createOperator({ login, role: roles[role], merchantIds, operator: "tests" });
  return res.enrolment!.token;
}

/** A tiny cookie-keeping client of the console's pages, for tests that need a signed-in operator without a browser. */
export class ConsoleClient {
  readonly base: string;
  readonly cookies = new Map<string, string>();
  /** The browser's languages, when a test reads the console in another (Accept-Language). */
  readonly language: string | undefined;
  constructor(base: string, language?: string) {
    this.base = base;
    this.language = language;
  }
  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { cookie: this.cookieHeader(), ...(this.language ? { "accept-language": this.language } : {}), ...extra };
  }
  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  async get(path: string): Promise<{ status: number; body: string; location: string | null }> {
    const res = await fetch(`${this.base}${path}`, { headers: this.headers(), redirect: "manual" });
    this.keep(res);
    return { status: res.status, body: await res.text(), location: res.headers.get("location") };
  }
  /** Posts a form, adding the CSRF token of the page at `from`. */
  async post(path: string, fields: Record<string, string | string[]>, from = path): Promise<{ status: number; body: string; location: string | null }> {
    const page = await this.get(from);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
    const form = new URLSearchParams({ csrf_token: csrf });
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
    const res = await fetch(`${this.base}${path}`, {
      method: "POST",
      headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: form.toString(),
      redirect: "manual",
    });
    this.keep(res);
    return { status: res.status, body: await res.text(), location: res.headers.get("location") };
  }
  /** The session cookie's name and value, to hand to a browser context. */
  session(): { name: string; value: string } | undefined {
    const name = [...this.cookies.keys()].find((k) => k.endsWith("cashier-console"));
    return name ? { name, value: this.cookies.get(name)! } : undefined;
  }
}

export interface EnrolledOperator {
  login: string;
  password: string;
  /** The TOTP secret in base32, as the enrolment page showed it. */
  secret: string;
  recoveryCodes: string[];
  /** A client signed in by the enrolment. */
  client: ConsoleClient;
}

/** Enrols an operator through the console's own pages, as a person would (without a browser). */
export async function enrolOverHttp(
  consoleUrl: string,
  token: string,
  login: string,
  password = `staple ${Math.random().toString(36).slice(2, 8)} battery horse`,
  now: () => Date = () => new Date(),
): Promise<EnrolledOperator> {
  const client = new ConsoleClient(consoleUrl);
  const set = await client.post(`/enrol/${token}`, { password, password_again: password });
  if (set.status !== 303) throw new Error(`enrolment password refused (${set.status}): ${set.body.slice(0, 400)}`);
  const page = await client.get(`/enrol/${token}`);
  const secret = /id="secret"[^>]*>([^<]+)</.exec(page.body)?.[1]?.replace(/\s+/g, "");
  if (!secret) throw new Error(`no TOTP key on the enrolment page: ${page.body.slice(0, 400)}`);
  const done = await client.post(`/enrol/${token}/totp`, { code: totpCode(secret, now()) }, `/enrol/${token}`);
  if (done.status !== 200) throw new Error(`enrolment code refused (${done.status}): ${done.body.slice(0, 400)}`);
  const recoveryCodes = [...done.body.matchAll(/<li><code dir="ltr">([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
  return { login, password, secret, recoveryCodes, client };
}

/** Creates and enrols one operator per login with its role, over HTTP; each one's signed-in client by login. */
export async function enrolOperators(
  svc: Service,
  consoleUrl: string,
  operators: ReadonlyArray<readonly [string, "viewer" | "support" | "payouts" | "admin"]>,
  now: () => Date = () => new Date(),
): Promise<Map<string, ConsoleClient>> {
  const clients = new Map<string, ConsoleClient>();
  for (const [login, role] of operators) {
    const op = await enrolOverHttp(consoleUrl, await createOperator(svc, login, role), login, undefined, now);
    clients.set(login, op.client);
  }
  return clients;
}

export interface ConsolePageOptions {
  width?: number;
  height?: number;
  locale?: string;
  /** Playwright's default timeout for the page's actions, in ms. */
  timeout?: number;
}

/**
 * A browser page signed in as the client's operator: a fresh context carrying its session cookie (so the browser
 * tests need not sign in through the form each time), closed when the test ends.
 */
export async function consolePage(t: Test, browser: Browser, consoleUrl: string, client: ConsoleClient, opts: ConsolePageOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 }, locale: opts.locale });
  context.setDefaultTimeout(opts.timeout ?? 30_000);
  t.teardown(() => context.close());
  const session = client.session();
  if (!session) throw new Error("the operator's client holds no console session");
  await context.addCookies([{ name: session.name, value: session.value, url: consoleUrl, httpOnly: true, sameSite: "Strict" }]);
  return context.newPage();
}
