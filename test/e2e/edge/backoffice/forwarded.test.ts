/**
 * The console behind a proxy (CASHIER_TRUSTED_PROXIES): a trusted proxy's
 * X-Forwarded-Proto https makes its cookies Secure with the __Host- prefix
 * and adds HSTS, and its X-Forwarded-For names the operator in the access
 * line; the same headers from any other peer change nothing. The sign-in
 * page needs no engine, so the console points at a closed port.
 */
import { request } from "node:http";
import t from "tap";
import { startBackoffice } from "../../../../edge/backoffice/server.ts";

const lines: Record<string, unknown>[] = [];
const log = { error: () => {}, info: (o: object, msg: string) => void lines.push({ ...o, msg }) };
const console_ = await startBackoffice({
  port: 0,
  host: "127.0.0.1",
  engineUrl: "http://127.0.0.1:9",
  token: "forwarded-test-token-0123456789abcdef",
  trustedProxies: ["127.0.0.1/32"],
  log,
});
t.teardown(() => console_.close());

function signIn(from: string, headers: Record<string, string>): Promise<{ cookies: string[]; hsts: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: console_.port, localAddress: from, path: "/signin", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ cookies: res.headers["set-cookie"] ?? [], hsts: res.headers["strict-transport-security"] }));
    });
    req.on("error", reject);
    req.end();
  });
}

const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.8" };

t.test("from the trusted proxy: Secure __Host- cookies, HSTS, the operator's address logged", async (t) => {
  const res = await signIn("127.0.0.1", forwarded);
  t.match(res.cookies.join("\n"), /^__Host-cashier-console-visitor=[^;]+;.*\bsecure\b/im);
  t.match(res.hsts, /max-age=/);
  t.match(lines.at(-1), { msg: "console request", path: "/signin", ip: "203.0.113.8" });
});

t.test("from any other peer: the headers are ignored", async (t) => {
  const res = await signIn("127.0.0.5", forwarded);
  t.match(res.cookies.join("\n"), /^cashier-console-visitor=/m, "no __Host- prefix");
  t.notMatch(res.cookies.join("\n"), /\bsecure\b/i, "not Secure");
  t.equal(res.hsts, undefined, "no HSTS");
  t.match(lines.at(-1), { msg: "console request", ip: "127.0.0.5" });
});
