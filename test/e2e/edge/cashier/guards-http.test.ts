/**
 * The Cashier's guards over HTTP against the running service (no browser
 * needed): a late autologin address and an ended session say only that; a
 * form without its CSRF token, with another session's token, too large or of
 * another type is refused with a page; unusable autologin guesses and session
 * starts are rate limited with 429 and Retry-After; HSTS is sent only over
 * TLS (behind a proxy that says so is the operator's choice, not trusted here).
 */
import t from "tap";
import { cashierMerchants, sessionBody, startSession } from "../../../support/cashier.ts";
import { movableClock } from "../../../support/clock.ts";
import { useService } from "../../../support/service.ts";

const clock = movableClock();
// The merchants' platform is a loopback address, as every test platform is: the callback check would refuse it at start.
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1" }, () => ({
  merchants: cashierMerchants("http://127.0.0.1:9", "http://localhost:1"),
  now: clock.now,
}));

async function open(over: Record<string, unknown> = {}) {
  const reply = await startSession(service().edgeUrl, sessionBody({ timestamp: Math.floor(clock.now().getTime() / 1000), ...over }));
  t.equal(reply.http, 200, "session started");
  return reply.body.redirect_url as string;
}

/** Follows the autologin redirect: the session page's path and its form's hidden fields. */
async function redeem(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  const path = res.headers.get("location") ?? "";
  const html = await (await fetch(service().edgeUrl + path)).text();
  return {
    path,
    session: /name="session_token" value="([^"]+)"/.exec(html)?.[1] ?? "",
    csrf: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? "",
    submissionKey: /name="submission_key" value="([^"]+)"/.exec(html)?.[1] ?? "",
  };
}

const post = (path: string, body: string, type = "application/x-www-form-urlencoded") =>
  fetch(service().edgeUrl + path, { method: "POST", body, redirect: "manual", headers: { "content-type": type } });

t.test("forms: no CSRF token, another session's token, a form too large or of another type are refused with a page", async (t) => {
  const a = await redeem(await open());
  const b = await redeem(await open());
  const fields = (over: Record<string, string>) =>
    new URLSearchParams({ preset: "1000", card_number: "4111111111111111", card_exp: "12/30", cvv: "123", holder: "Jane Doe", ...over }).toString();
  let res = await post(a.path, fields({ session_token: a.session }));
  t.equal(res.status, 403, "no CSRF token");
  t.match(await res.text(), "This form has expired or did not come from this page");
  res = await post(a.path, fields({ session_token: a.session, csrf_token: b.csrf }));
  t.equal(res.status, 403, "the CSRF token of another session");
  res = await post(a.path, fields({ session_token: b.session, csrf_token: b.csrf }));
  t.equal(res.status, 403, "another session's fields posted to this session's address");
  res = await post(a.path, "x".repeat(5000));
  t.equal(res.status, 413);
  res = await post(a.path, "{}", "application/json");
  t.equal(res.status, 415);
  res = await post(a.path, fields({ session_token: a.session, csrf_token: a.csrf, submission_key: a.submissionKey }));
  t.equal(res.status, 303, "with both tokens the form goes through");
  t.equal((await fetch(service().edgeUrl + a.path)).headers.get("strict-transport-security"), null, "no HSTS over plain HTTP");
});

t.test("a card number typed into the amount or the holder's name comes back masked on the refused form", async (t) => {
  const a = await redeem(await open());
  const res = await post(
    a.path,
    new URLSearchParams({
      session_token: a.session,
      csrf_token: a.csrf,
      submission_key: a.submissionKey,
      amount: "4000000000000077",
      card_number: "4111111111111111",
      card_exp: "12/30",
      cvv: "123",
      holder: "4000 0000 0000 0077",
    }).toString(),
  );
  t.equal(res.status, 400, "refused: no such amount");
  const page = await res.text();
  t.notMatch(page, /4000000000000077|4000 0000 0000 0077|4111111111111111/, "no card number on the page");
  t.match(page, /value="400000\*{6}0077"/, "the amount field shows it masked");
  t.match(page, /value="4000 00\*\* \*{4} 0077"/, "so does the holder's");
});

t.test("a form posted to the other intent's page is sent to its own page, with nothing made and no form shown", async (t) => {
  const orders = async () => (await service().sql<{ n: number }>("select count(*)::int as n from payment_order where created_by = 'customer'"))[0].n;
  const before = await orders();
  const withdrawal = await redeem(await open({ intent: "withdrawal", order_id: `po-${process.pid}-intent`, balance: 100000 }));
  t.match(withdrawal.path, /\/withdrawal$/);
  const deposit = await redeem(await open());
  t.match(deposit.path, /\/deposit$/);
  for (const [from, to, fields] of [
    [withdrawal, "withdrawal", { amount: "10.5x", card_number: "4111111111111111", card_exp: "12/30", cvv: "123", holder: "Jane Doe" }],
    [withdrawal, "withdrawal", { preset: "1000", card_number: "4111111111111111", card_exp: "12/30", cvv: "123", holder: "Jane Doe" }],
    [deposit, "deposit", { amount: "", card_number: "1" }],
    [deposit, "deposit", { amount: "10.00", card_number: "4111111111111111", card_exp: "12/30", holder: "Jane Doe" }],
  ] as const) {
    const other = to === "withdrawal" ? "deposit" : "withdrawal";
    const res = await post(
      from.path.replace(/\/(deposit|withdrawal)$/, `/${other}`),
      new URLSearchParams({ session_token: from.session, csrf_token: from.csrf, submission_key: from.submissionKey, ...fields }).toString(),
    );
    t.equal(res.status, 303, `a ${to} session's post to /${other}`);
    t.equal(res.headers.get("location"), from.path, "is sent to its own page");
  }
  t.equal(await orders(), before, "and made no order");
});

t.test("a page names its icon, served by the edge: browsers do not ask for /favicon.ico, a 404 logged on every page", async (t) => {
  const { path } = await redeem(await open());
  const html = await (await fetch(service().edgeUrl + path)).text();
  const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(html)?.[1];
  t.match(href, /^\/assets\/icon\.[0-9a-f]{16}\.svg$/, "a hashed asset of the edge");
  const icon = await fetch(service().edgeUrl + (href ?? "/favicon.ico"));
  t.same([icon.status, icon.headers.get("content-type")], [200, "image/svg+xml"]);
  t.match(await icon.text(), /^<svg [^>]*><title>Cashier<\/title>/);
});

t.test("a HEAD (a link preview) does not use up the link; a declared parent that is not allowed is dropped", async (t) => {
  const url = await open();
  const head = await fetch(url, { method: "HEAD", redirect: "manual" });
  t.equal(head.status, 204);
  const res = await fetch(`${url}?parent=${encodeURIComponent("https://evil.example")}`, { redirect: "manual" });
  t.equal(res.status, 303, "the link still works after the HEAD");
  const location = res.headers.get("location") ?? "";
  t.notMatch(location, "parent=", "a parent origin not in allowed_origins is not carried");
  const page = await (await fetch(service().edgeUrl + location)).text();
  t.notMatch(page, "data-parent-origin", "so the page posts no event");

  const allowed = await fetch(`${await open()}?parent=${encodeURIComponent("http://localhost:1")}`, { redirect: "manual" });
  const kept = allowed.headers.get("location") ?? "";
  t.match(kept, "?parent=http%3A%2F%2Flocalhost%3A1");
  t.match(await (await fetch(service().edgeUrl + kept)).text(), 'data-parent-origin="http://localhost:1"');
});

t.test("late: an autologin address past expires_at, and a session past its end, say only that", async (t) => {
  const unused = await open();
  const opened = await redeem(await open());
  clock.advance(901_000);
  const late = await fetch(unused, { redirect: "manual" });
  t.equal(late.status, 410);
  const text = await late.text();
  t.match(text, "This link cannot be used");
  t.notMatch(text, /Jane|USD|<form/);
  const ended = await fetch(service().edgeUrl + opened.path);
  t.equal(ended.status, 410);
  t.match(await ended.text(), "Your session has ended");
});

t.test("autologin guesses from one address are refused after ten unusable links (the late one and the refused frame count), with Retry-After", async (t) => {
  // A frame the frontend does not list: refused, the link unused, and counted like a guess (it tells the link is unused).
  const link = await open();
  const framed = await fetch(link, { redirect: "manual", headers: { "sec-fetch-dest": "iframe", referer: "https://evil.example/shop" } });
  t.equal(framed.status, 403, "a frame of an unlisted site");
  t.match(framed.headers.get("content-security-policy"), "frame-ancestors 'none'");
  await framed.text();
  t.equal((await fetch(link, { redirect: "manual" })).status, 303, "the link still opens in its own window");
  const statuses: number[] = [];
  for (let i = 0; i < 12 && statuses.at(-1) !== 429; i++) {
    const res = await fetch(`${service().edgeUrl}/cashier/autologin/${"g".repeat(42)}${i % 10}`);
    statuses.push(res.status);
    await res.text();
  }
  t.same(statuses, [...Array(8).fill(410), 429], "eight more unusable links say so, then the address is refused");
  const refused = await fetch(`${service().edgeUrl}/cashier/autologin/${"h".repeat(43)}`);
  t.equal(refused.status, 429);
  t.ok(Number(refused.headers.get("retry-after")) > 0);
  t.match(await refused.text(), "Too many attempts");
});

t.test("session starts from one address are limited (120 a minute): the wire's refusal with status 21", async (t) => {
  let last: { http: number; body: Record<string, any> } | undefined;
  for (let i = 0; i < 125 && last?.http !== 429; i++) last = await startSession(service().edgeUrl, { intent: "deposit" });
  t.equal(last?.http, 429);
  t.equal(last?.body.status, 21);
  t.match(last?.body.description, "Too many session starts");
  t.same(
    Object.keys(last?.body ?? {}),
    ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"],
    "in a session start's members, as every other refusal of it",
  );
});
