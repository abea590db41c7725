/**
 * The Backoffice's gate in Debian's Chromium, against the running service:
 * enrolment from the one-time link (password twice with the rules shown, the
 * server-drawn QR code and the key, a TOTP code computed here with otpauth,
 * the recovery codes once), a passkey added and then used to sign in through
 * a virtual WebAuthn authenticator (CDP), sign-in with password and TOTP by
 * keyboard alone, the lockout's and the idle sign-out's messages (the
 * engine's clock moved), sign-out, a change of the operator's own password
 * (refused beside its fields, then made, signing out the other session);
 * axe finds no serious or critical
 * violation on any of these pages, and each is kept as a screenshot.
 */
import t, { type Test } from "tap";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { createOperator, enrolOverHttp, startConsole, totpCode } from "../support/backoffice.ts";
import { backofficeClient, ctx } from "../support/operators.ts";
import { axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";

const clock = movableClock();
const service = useService(t, {}, { now: clock.now });
let browser: Browser;
let bo: BackofficeHandle;
/** WebAuthn needs a domain name: the console as the browser sees it, at localhost. */
let url: string;

t.before(async () => {
  bo = await startConsole(service());
  url = `http://localhost:${bo.port}`;
  browser = await launchBrowser();
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

async function fresh(t: Test): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  return { context, page: await context.newPage() };
}

async function axeClean(t: Test, page: Page, name: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${name}`);
  t.comment(`screenshot: ${await screenshot(page, `backoffice-${name}`)}`);
}

/** The next 30-second step: a TOTP code works once, and the one before may have been used. */
function nextCode(secret: string): string {
  clock.advance(30_000);
  return totpCode(secret, clock.now());
}

t.test("enrolment in the browser, a passkey added, then signing in with it", async (t) => {
  const token = await createOperator(service(), "olga", "admin");
  const { context, page } = await fresh(t);
  await page.goto(`${url}/enrol/${token}`);
  t.equal(await page.textContent("h1"), "Set up your operator");
  t.match(await page.textContent("#password-rules"), /At least 12 characters/, "the rules before the password");
  await axeClean(t, page, "enrol-password");
  await page.fill("#password", "a long phrase nobody guesses");
  await page.fill("#password_again", "a long phrase nobody guesses, typo");
  await page.click("#enrol-password");
  await page.waitForSelector("#error-summary");
  t.match(await page.textContent("#error-summary"), /The two passwords are not the same/);
  await page.fill("#password", "a long phrase nobody guesses");
  await page.fill("#password_again", "a long phrase nobody guesses");
  await page.click("#enrol-password");
  await page.waitForSelector("#secret");
  t.ok(await page.$(".qr svg"), "the QR code is an SVG in the page");
  await axeClean(t, page, "enrol-totp");
  // A virtual authenticator, as a phone or a security key would be.
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const secret = (await page.textContent("#secret"))!.replace(/\s+/g, "");
  await page.fill("#code", totpCode(secret, clock.now()));
  await page.click("#enrol-totp");
  await page.waitForSelector("#recovery-codes");
  const codes = await page.$$eval("#recovery-codes li", (lis) => lis.map((li) => li.textContent));
  t.equal(codes.length, 10, "ten recovery codes");
  await page.waitForSelector("[data-passkey]:not([hidden]) #passkey");
  await axeClean(t, page, "recovery-codes");
  await page.click("#passkey");
  await page.waitForURL(/\/account\?notice=added$/);
  t.match(await page.textContent("#notice"), /The passkey was added/);
  t.equal(await page.locator("#passkeys tbody tr").count(), 1, "one passkey listed");
  await axeClean(t, page, "account");

  await page.click("#signout");
  await page.waitForURL(/\/signin\?m=signedout$/);
  t.match(await page.textContent("#notice"), /You are signed out/);
  await page.fill("#login", "olga");
  await page.fill("#password", "a long phrase nobody guesses");
  await page.click("#signin");
  await page.waitForSelector("[data-passkey]:not([hidden]) #passkey");
  await axeClean(t, page, "second-step");
  await page.click("#passkey");
  await page.waitForURL(`${url}/`);
  t.equal(await page.textContent("h1"), "Dashboard", "signed in with the passkey");
  t.match(await page.textContent(".whoami"), /olga \(admin\)/);
});

t.test("sign-in with password and TOTP, by keyboard alone", async (t) => {
  const pia = await enrolOverHttp(bo.url, await createOperator(service(), "pia", "viewer"), "pia", undefined, clock.now);
  const { page } = await fresh(t);
  await page.goto(`${url}/signin`);
  await axeClean(t, page, "signin");
  const walk = await keyboardWalk(page);
  t.same(
    walk.map((s) => s.element),
    ["a", "input#login", "input#password", "button#signin"],
    "skip link, login, password, the one button",
  );
  for (const s of walk) t.ok(s.visible, `focus visible on ${s.element}`);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  t.equal(await page.evaluate("document.activeElement.id"), "login");
  await page.keyboard.type("pia");
  await page.keyboard.press("Tab");
  await page.keyboard.type(pia.password);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#totp");
  await page.focus("#totp");
  await page.keyboard.type(nextCode(pia.secret));
  await page.keyboard.press("Enter");
  await page.waitForURL(`${url}/`);
  t.equal(await page.textContent("h1"), "Dashboard");
});

t.test("a wrong code is said beside the field; ten failures lock the operator, and the page says how it works", async (t) => {
  const quinn = await enrolOverHttp(bo.url, await createOperator(service(), "quinn", "viewer"), "quinn", undefined, clock.now);
  const { page } = await fresh(t);
  await page.goto(`${url}/signin`);
  await page.fill("#login", "quinn");
  await page.fill("#password", quinn.password);
  await page.click("#signin");
  await page.fill("#totp", "123456");
  await page.click("#totp-submit");
  await page.waitForSelector("#error-summary");
  t.match(await page.textContent("#totp-error"), /The code is wrong or has expired/);
  t.equal(await page.getAttribute("#totp", "aria-invalid"), "true");
  await axeClean(t, page, "second-step-error");
  for (let i = 0; i < 10; i++) {
    await page.goto(`${url}/signin`);
    await page.fill("#login", "quinn");
    await page.fill("#password", `not the password ${i}`);
    await page.click("#signin");
    await page.waitForSelector("#notice");
  }
  await page.goto(`${url}/signin`);
  await page.fill("#login", "quinn");
  await page.fill("#password", quinn.password);
  await page.click("#signin");
  await page.waitForSelector("#notice");
  t.match(await page.textContent("#notice"), /After 10 failed attempts an operator is locked for 30 minutes/);
  t.notOk(await page.$("#totp"), "the right password does not pass while locked");
  await axeClean(t, page, "signin-locked");
});

t.test("15 idle minutes: the next click lands on sign-in, which says why", async (t) => {
  const rosa = await enrolOverHttp(bo.url, await createOperator(service(), "rosa", "viewer"), "rosa", undefined, clock.now);
  const { context, page } = await fresh(t);
  const session = rosa.client.session()!;
  await context.addCookies([{ name: session.name, value: session.value, url, httpOnly: true, sameSite: "Strict" }]);
  await page.goto(`${url}/transactions`);
  t.equal(await page.textContent("h1"), "Transactions");
  clock.advance(16 * 60_000);
  await page.click('nav a[href="/"]');
  await page.waitForURL(/\/signin\?m=idle$/);
  t.match(await page.textContent("#notice"), /Your session has ended: 15 minutes without activity/);
  await axeClean(t, page, "signin-idle");
  const cookies = await context.cookies(url);
  t.notOk(
    cookies.some((c) => c.name === session.name),
    "the session cookie is gone",
  );
});

t.test("My account: a password change is refused beside its fields, then made; the operator's other session is signed out", async (t) => {
  const uma = await enrolOverHttp(bo.url, await createOperator(service(), "uma", "viewer"), "uma", undefined, clock.now);
  const NEW = "seven lanterns over the quiet harbour";
  const { page } = await fresh(t);
  await page.goto(`${url}/signin`);
  await page.fill("#login", "uma");
  await page.fill("#password", uma.password);
  await page.click("#signin");
  await page.fill("#totp", nextCode(uma.secret));
  await page.click("#totp-submit");
  await page.waitForURL(`${url}/`);
  await page.goto(`${url}/account`);
  t.equal(await page.getAttribute("#current_password", "autocomplete"), "current-password");
  t.equal(await page.getAttribute("#new_password", "autocomplete"), "new-password");

  const submit = async (current: string, next: string, again = next) => {
    await page.fill("#current_password", current);
    await page.fill("#new_password", next);
    await page.fill("#new_password_again", again);
    await page.click("#change-password");
    await page.waitForLoadState();
  };
  await submit("not my password at all", NEW);
  await page.waitForSelector("#error-summary");
  t.match(await page.textContent("#current_password-error"), /This is not your current password/);
  t.equal(await page.getAttribute("#current_password", "aria-invalid"), "true");
  await axeClean(t, page, "account-password-refused");
  await submit(uma.password, NEW, `${NEW}!`);
  t.match(await page.textContent("#new_password_again-error"), /The two passwords are not the same/);
  await submit(uma.password, "passwordpassword");
  t.match(await page.textContent("#new_password-error"), /This password is on a list of breached or common passwords\. Choose another\./);
  await submit(uma.password, NEW);
  await page.waitForURL(/\/account\?notice=password$/);
  t.match(await page.textContent("#notice"), /Your password was changed\. Your sessions on other devices were signed out/);
  await axeClean(t, page, "account-password-changed");
  // A notice is named by the page's own table only: Object's members name none, on every page that takes one.
  for (const word of ["constructor", "__proto__", "toString"]) {
    for (const path of [`/account?notice=${word}`, `/payouts?notice=${word}`, `/signin?m=${word}`]) {
      const res = await page.goto(`${url}${path}`);
      t.equal(res?.status(), 200, `${path} names no notice`);
      t.equal(await page.locator("#notice").count(), 0);
    }
  }
  await page.goto(`${url}/account`);

  const other = await uma.client.get("/");
  t.equal(other.status, 303, "the enrolment's session, elsewhere, is over");
  t.match(other.location, /\/signin/);
  t.equal(await page.textContent("h1"), "My account", "this one goes on");

  // Someone else locks the account at the sign-in page: the right password is then not judged here either, and the
  // page says why instead of calling it wrong.
  // (Through the engine from another address: this file's own address has used up the console's per-address limit.)
  const engine = backofficeClient(service().engineUrl);
  for (let i = 0; i < 10; i++) await engine.signIn({ context: ctx("", "198.51.100.77"), login: "uma", password: `not the password ${i}` }).catch(() => {});
  await submit(NEW, "an entirely new phrase for later");
  await page.waitForSelector("#current_password-error");
  t.match(await page.textContent("#current_password-error"), /cannot be checked now: after too many wrong passwords/);
  t.equal(await page.textContent("h1"), "My account", "still signed in");
});
