/**
 * The hosted pages' headers: a strict CSP (scripts and styles only under the
 * response's nonce or from the edge, nothing inline, no other origin), framing
 * only for allowed origins, HSTS only over TLS, no referrer, no-store for
 * pages with customer data.
 */
import t from "tap";
import { contentSecurityPolicy, httpOrigin, newNonce, pageHeaders } from "../../../../../edge/pages/kit/security.ts";

/** The CSP as directive -> sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

t.test("a nonce is 128 random bits, new every time", async (t) => {
  const nonces = new Set(Array.from({ length: 100 }, newNonce));
  t.equal(nonces.size, 100);
  for (const n of nonces) t.equal(Buffer.from(n, "base64").length, 16);
});

t.test("the policy: nothing by default, scripts only with the nonce, no unsafe-anything, no wildcard", async (t) => {
  const csp = contentSecurityPolicy({ nonce: "abc", formTargets: ["https://shop.example", "javascript:alert(1)"] });
  const d = directives(csp);
  t.same(d["default-src"], ["'none'"]);
  t.same(d["script-src"], ["'nonce-abc'"]);
  t.same(d["style-src"], ["'self'", "'nonce-abc'"]);
  t.same(d["form-action"], ["'self'", "https://shop.example"], "only an http(s) origin joins form-action");
  t.same(d["frame-ancestors"], ["'none'"]);
  t.same(d["base-uri"], ["'none'"]);
  t.notMatch(csp, /unsafe|\*|data:|https?:\/\/(?!shop\.example)/);
});

t.test("framing: the allowed origins only; X-Frame-Options DENY when none", async (t) => {
  const framed = pageHeaders({ nonce: "n", frameAncestors: ["https://shop.example", "http://localhost:3000"] });
  t.same(directives(framed["Content-Security-Policy"])["frame-ancestors"], ["https://shop.example", "http://localhost:3000"]);
  t.equal(framed["X-Frame-Options"], undefined, "X-Frame-Options cannot list origins: left out so the CSP decides");
  const alone = pageHeaders({ nonce: "n" });
  t.same(directives(alone["Content-Security-Policy"])["frame-ancestors"], ["'none'"]);
  t.equal(alone["X-Frame-Options"], "DENY");
  const patterns = pageHeaders({ nonce: "n", frameAncestors: ["https://*.shop.example", "*", "https://shop.example/path"] });
  t.same(directives(patterns["Content-Security-Policy"])["frame-ancestors"], ["'none'"], "a wildcard or a non-origin frames nothing");
  t.equal(patterns["X-Frame-Options"], "DENY");
});

t.test("the other headers", async (t) => {
  const h = pageHeaders({ nonce: "n", customerData: true });
  t.equal(h["Referrer-Policy"], "no-referrer");
  t.equal(h["X-Content-Type-Options"], "nosniff");
  t.equal(h["Cache-Control"], "no-store");
  t.equal(h["Content-Type"], "text/html; charset=utf-8");
  t.equal(h["Strict-Transport-Security"], undefined, "no HSTS over plain http");
  t.equal(pageHeaders({ nonce: "n", tls: true })["Strict-Transport-Security"], "max-age=31536000; includeSubDomains");
  t.equal(pageHeaders({ nonce: "n" })["Cache-Control"], "no-store", "customer data is assumed unless a page says it has none");
  t.equal(pageHeaders({ nonce: "n", customerData: false })["Cache-Control"], "no-cache");
});

t.test("an opener keeps no handle on a page: Cross-Origin-Opener-Policy same-origin, framed or not", async (t) => {
  t.equal(pageHeaders({ nonce: "n" })["Cross-Origin-Opener-Policy"], "same-origin");
  const framed = pageHeaders({ nonce: "n", frameAncestors: ["https://shop.example"] });
  t.equal(framed["Cross-Origin-Opener-Policy"], "same-origin", "sent to framed pages too (browsers ignore it in a frame)");
  t.same(directives(framed["Content-Security-Policy"])["frame-ancestors"], ["https://shop.example"], "framing by the allowed origin stays");
  t.equal(framed["Cross-Origin-Embedder-Policy"], undefined, "no COEP: the page needs no cross-origin isolation");
});

t.test("httpOrigin accepts only absolute http(s) URLs", async (t) => {
  t.equal(httpOrigin("https://shop.example:8443/x?y=1"), "https://shop.example:8443");
  for (const bad of ["javascript:alert(1)", "data:text/html,x", "/relative", "", "not a url"]) t.equal(httpOrigin(bad), undefined, bad);
});
