/**
 * The Backoffice's own listener beside a running service: its pages carry the
 * console's headers (strict CSP under a nonce, no framing, no caching, no
 * referrer, HSTS and Secure __Host- cookies only over TLS), its assets are
 * its own (chart.js and the WebAuthn bundle included, no other origin), forms
 * without this browser's CSRF token are refused, unknown paths are an HTML
 * 404, and none of the console's paths is served by the public edge.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { CONSOLE_ASSETS } from "../../../../edge/backoffice/assets.ts";
import type { BackofficeHandle } from "../../../../edge/backoffice/server.ts";
import { useService } from "../../../support/service.ts";
import { startConsole } from "../../../support/backoffice.ts";

const service = useService(t);
let console_: BackofficeHandle;
t.before(async () => {
  console_ = await startConsole(service());
});
t.teardown(() => console_?.close());

/** The CSP as directive -> sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

t.test("the sign-in page: strict CSP with this response's nonce, no framing, no store, no referrer, no HSTS over plain HTTP", async (t) => {
  const res = await fetch(`${console_.url}/signin`);
  t.equal(res.status, 200);
  const body = await res.text();
  t.match(body, `<link rel="icon" href="${CONSOLE_ASSETS.icon.url}" type="image/svg+xml">`, "the console names its icon (no /favicon.ico 404)");
  const csp = directives(res.headers.get("content-security-policy") ?? "");
  const nonce = /'nonce-([^']+)'/.exec(csp["script-src"]?.[0] ?? "")?.[1];
  t.ok(nonce, "script-src is a nonce");
  t.same(csp["default-src"], ["'none'"]);
  t.same(csp["script-src"], [`'nonce-${nonce}'`], "scripts only under the nonce: no unsafe-inline, no other origin");
  t.same(csp["style-src"], ["'self'", `'nonce-${nonce}'`]);
  t.same(csp["frame-ancestors"], ["'none'"]);
  t.same(csp["form-action"], ["'self'"]);
  t.same(csp["base-uri"], ["'none'"]);
  t.notMatch(res.headers.get("content-security-policy"), /unsafe|\*|https?:/, "nothing unsafe, no wildcard, no other origin");
  t.equal(res.headers.get("x-frame-options"), "DENY");
  t.equal(res.headers.get("referrer-policy"), "no-referrer");
  t.equal(res.headers.get("cache-control"), "no-store");
  t.equal(res.headers.get("x-content-type-options"), "nosniff");
  t.equal(res.headers.get("strict-transport-security"), null, "no HSTS over plain HTTP");
  const scripts = [...body.matchAll(/<script src="([^"]+)"[^>]*nonce="([^"]+)"/g)];
  t.ok(scripts.length > 0, "the page has scripts");
  for (const [, src, n] of scripts) {
    t.match(src, /^\/assets\//, `${src} is the console's own`);
    t.equal(n, nonce, "under this response's nonce");
  }
  t.notMatch(body, /<script(?![^>]*(nonce=|type="application\/json"))/, "no script tag without the nonce");
  t.notMatch(body, /style="/, "no inline style attribute");
  const cookie = res.headers.get("set-cookie") ?? "";
  t.match(cookie, /^cashier-console-visitor=[A-Za-z0-9_-]{32};/, "a visitor cookie binds the form's CSRF token");
  t.match(cookie, /httponly/i);
  t.match(cookie, /samesite=strict/i);
  t.notMatch(cookie, /secure/i, "not Secure over plain HTTP (the browser would drop it)");
  t.match(body, /<input type="hidden" name="csrf_token" value="[^"]{20,}">/, "the form carries a CSRF token");
  const second = await fetch(`${console_.url}/signin`);
  t.not(/'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1], nonce, "a new nonce per response");
});

t.test("the console serves its assets itself, hashed and immutable, chart.js and the WebAuthn bundle included", async (t) => {
  for (const [name, asset] of Object.entries(CONSOLE_ASSETS)) {
    const res = await fetch(`${console_.url}${asset.url}`);
    t.equal(res.status, 200, `${name}: ${asset.url}`);
    t.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
    t.equal(res.headers.get("content-type"), asset.type);
    t.equal(Buffer.from(await res.arrayBuffer()).length, asset.body.length);
  }
  t.match(CONSOLE_ASSETS.chart.body.toString("utf8", 0, 200), /Chart\.js/, "chart.js is the library's own bundle");
  t.match(CONSOLE_ASSETS.webauthn.body.toString("utf8", 0, 200), /simplewebauthn\/browser/, "and so is the WebAuthn helper");
  const stale = await fetch(`${console_.url}/assets/console.0000000000000000.css`);
  t.equal(stale.status, 404, "another hash is not served");
  await stale.body?.cancel();
});

t.test("a form without this browser's CSRF token is refused before the engine is asked", async (t) => {
  const page = await fetch(`${console_.url}/signin`);
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1];
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${console_.url}/signin`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
  const missing = await post({ cookie }, "login=someone&password=whatever-it-is");
  t.equal(missing.status, 403, "no token");
  t.match(await missing.text(), /did not come from this console/);
  const otherBrowser = await post(
    { cookie: "cashier-console-visitor=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    `login=someone&password=x&csrf_token=${encodeURIComponent(token)}`,
  );
  t.equal(otherBrowser.status, 403, "a token made for another browser");
  await otherBrowser.body?.cancel();
  const crossSite = await post({ cookie, origin: "https://evil.example" }, `login=someone&password=x&csrf_token=${encodeURIComponent(token)}`);
  t.equal(crossSite.status, 403, "a post from another origin");
  await crossSite.body?.cancel();
  const crossFetch = await post({ cookie, "sec-fetch-site": "cross-site" }, `login=someone&password=x&csrf_token=${encodeURIComponent(token)}`);
  t.equal(crossFetch.status, 403, "a post the browser marks cross-site");
  await crossFetch.body?.cancel();
  const json = await fetch(`${console_.url}/signin`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: "{}" });
  t.equal(json.status, 415, "only url-encoded forms");
  await json.body?.cancel();
});

t.test("signed-out visitors are sent to sign-in; unknown paths are the console's HTML 404", async (t) => {
  for (const path of ["/"]) {
    const res = await fetch(`${console_.url}${path}`, { redirect: "manual" });
    t.equal(res.status, 303, `${path} without a session`);
    t.equal(res.headers.get("location"), "/signin");
  }
  const missing = await fetch(`${console_.url}/no/such/page`);
  t.equal(missing.status, 404);
  t.match(missing.headers.get("content-type"), /^text\/html/);
  t.match(missing.headers.get("content-security-policy"), /default-src 'none'/);
  t.match(await missing.text(), /<h1>Not found<\/h1>/);
  const health = await fetch(`${console_.url}/healthz`);
  t.same(await health.json(), { status: 0, description: "ok" });
});

t.test("the public edge serves none of the console's paths", async (t) => {
  const edge = service().edgeUrl;
  const paths = [
    "/signin",
    "/signin/totp",
    "/enrol/abcdefghijklmnopqrstuvwxyz012345",
    "/transactions",
    "/payouts",
    "/stuck",
    "/merchants",
    "/operators",
    "/audit",
    "/account",
  ];
  for (const path of [...paths, CONSOLE_ASSETS.css.url, CONSOLE_ASSETS.chart.url, CONSOLE_ASSETS.webauthn.url]) {
    const res = await fetch(`${edge}${path}`);
    t.equal(res.status, 404, `GET ${path} on the edge`);
    await res.body?.cancel();
  }
  const post = await fetch(`${edge}/signin`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "login=a&password=b" });
  t.equal(post.status, 404, "POST /signin on the edge");
  await post.body?.cancel();
});

t.test("over TLS: HSTS, and the cookies are Secure with the __Host- prefix", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "console-tls-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const cert = readFileSync(join(dir, "cert.pem"));
  const secure = await startConsole(service(), { tls: { cert, key: readFileSync(join(dir, "key.pem")) } });
  t.teardown(() => secure.close());
  t.match(secure.url, /^https:\/\//);
  const res = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = httpsRequest(`${secure.url}/signin`, { ca: cert }, (r) => {
      r.resume();
      resolve({ status: r.statusCode ?? 0, headers: r.headers });
    });
    req.on("error", reject);
    req.end();
  });
  t.equal(res.status, 200);
  t.equal(res.headers["strict-transport-security"], "max-age=31536000; includeSubDomains");
  const cookie = String(res.headers["set-cookie"]);
  t.match(cookie, /^__Host-cashier-console-visitor=/);
  t.match(cookie, /; secure/i);
  t.match(cookie, /httponly/i);
  t.match(cookie, /samesite=strict/i);
  t.match(cookie, /path=\//);
});

t.test("only its own names: another Host (DNS rebinding) is 421 before any page or form", async (t) => {
  const { request } = await import("node:http");
  const ask = (base: string, host: string, method = "GET", path = "/signin") =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(base);
      const req = request({ hostname: u.hostname, port: u.port, path, method, headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(method === "POST" ? "login=x&password=y" : undefined);
    });
  const port = new URL(console_.url).port;
  t.equal(await ask(console_.url, `evil.example:${port}`), 421, "a name it was not given");
  t.equal(await ask(console_.url, `evil.example:${port}`, "POST"), 421, "nor a sign-in sent under it");
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "127.0.0.1", "backoffice:8081"])
    t.equal(await ask(console_.url, host), 200, host);
  const named = await startConsole(service(), { publicUrl: "https://console.example" });
  t.teardown(() => named.close());
  t.equal(await ask(named.url, "console.example"), 200, "BACKOFFICE_PUBLIC_URL's host");
  t.equal(await ask(named.url, "console.example.:443"), 200, "also written fully qualified");
  t.equal(await ask(named.url, "other.example"), 421);
});
