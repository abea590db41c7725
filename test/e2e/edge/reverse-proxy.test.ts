/**
 * The edge behind a real reverse proxy: Debian's nginx, started by this test
 * as an unprivileged child on 127.0.0.1 with a config in a temp dir (its own
 * pid, log and temp paths), in front of a running Cashier whose
 * CASHIER_TRUSTED_PROXIES names nginx's address (127.0.0.1) only. Customers
 * reach nginx from other loopback addresses (127.0.0.2, 127.0.0.3: Linux
 * routes all of 127.0.0.0/8 to loopback), so each is its own client:
 * - one customer's made-up autologin links get it 429, and another
 *   customer's fresh link still opens (the limit is per customer, not per proxy);
 * - the access log and the address recorded with the customer's deposit name
 *   the customer, never the proxy;
 * - HSTS follows the proxy's X-Forwarded-Proto (nginx says https, as a TLS
 *   proxy does);
 * - forwarding headers from a peer that is not a trusted proxy (a client
 *   that reaches the edge itself, or what a client sends through nginx) are
 *   ignored: no one can spend another customer's limit or take their address.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { cashierMerchants, sessionBody, startSession } from "../../support/cashier.ts";
import { useService } from "../../support/service.ts";
import { until } from "../../support/until.ts";

const NGINX = "/usr/sbin/nginx";
const A = "127.0.0.2";
const B = "127.0.0.3";
const SPOOFER = "127.0.0.4";

if (!existsSync(NGINX)) {
  t.fail(`Debian's nginx is needed at ${NGINX} (apt-get install -y nginx; .ci/run installs it)`);
  process.exit(1);
}

// CASHIER_CALLBACK_ALLOW_PRIVATE: the merchants' platform is a loopback address, which the callback check would refuse at start.
const service = useService(t, { CASHIER_TRUSTED_PROXIES: "127.0.0.1", CASHIER_CALLBACK_ALLOW_PRIVATE: "1", LOG_LEVEL: "info" }, () => ({
  merchants: cashierMerchants("http://127.0.0.1:9", "http://localhost:1"),
}));

/** A free port on 127.0.0.1 for nginx to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let nginx: ChildProcess | undefined;
let proxyPort = 0;
const dir = mkdtempSync(join(tmpdir(), "cashier-nginx-"));

t.before(async () => {
  const edgePort = Number(new URL(service().edgeUrl).port);
  proxyPort = await freePort();
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  // The operations guide's example, on loopback ports: nginx appends the address it saw to X-Forwarded-For
  // and says which protocol the customer used (https here, as a TLS proxy would; the test speaks plain HTTP to it).
  writeFileSync(
    join(dir, "nginx.conf"),
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${proxyPort};
    location / {
      proxy_pass http://127.0.0.1:${edgePort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
    }
  }
}
`,
  );
  let out = "";
  nginx = spawn(NGINX, ["-p", dir, "-e", join(dir, "error.log"), "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  nginx.stdout?.on("data", (d) => (out += d));
  nginx.stderr?.on("data", (d) => (out += d));
  const up = await until(async () => {
    if (nginx?.exitCode !== null) throw new Error(`nginx exited ${nginx?.exitCode}: ${out}`);
    return (await call(A, proxyPort, "/healthz").catch(() => undefined))?.status === 200;
  }, 10_000);
  if (!up) throw new Error(`nginx did not answer in 10 s: ${out}`);
});

t.teardown(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx?.once("exit", resolve));
    nginx.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request from the local address `from` to 127.0.0.1:port. */
function call(from: string, port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, localAddress: from, path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const viaProxy = (from: string, path: string, opts?: Parameters<typeof call>[3]) => call(from, proxyPort, path, opts);
const edgePort = () => Number(new URL(service().edgeUrl).port);

/** A fresh autologin link's path (a signed session start, sent to the edge itself). */
async function freshLink(pin?: string): Promise<string> {
  const reply = await startSession(service().edgeUrl, sessionBody(pin ? { pin } : {}));
  t.equal(reply.http, 200, "session started");
  return new URL(reply.body.redirect_url as string).pathname;
}

const madeUp = (i: number) => `/cashier/autologin/${"m".repeat(40)}${String(i).padStart(3, "0")}`;

/** The access lines of the run's log. */
function accessLines(): { msg: string; path: string; http: number; ip: string }[] {
  return service()
    .logs()
    .split("\n")
    .filter((l) => l.includes('"msg":"request"'))
    .map((l) => JSON.parse(l));
}

t.test("one customer's made-up links get it 429; another customer's fresh link still opens", async (t) => {
  const link = await freshLink();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    // The guesser also claims to be B: nginx appends the address it saw, and the edge believes only that.
    statuses.push((await viaProxy(A, madeUp(i), { headers: { "X-Forwarded-For": B } })).status);
  }
  t.same(statuses, [...Array(10).fill(410), 429, 429], "ten unusable links, then A is refused");
  const opened = await viaProxy(B, link);
  t.equal(opened.status, 303, "B's fresh link opens: A's guesses were A's alone");
  const again = await viaProxy(A, await freshLink());
  t.equal(again.status, 429, "and A stays refused, even with a valid link");

  const lines = accessLines();
  t.equal(lines.filter((l) => l.path.startsWith("/cashier/autologin/") && l.ip === A).length, 13, "A's requests are logged with A's address");
  const bLine = lines.find((l) => l.path.startsWith("/cashier/autologin/") && l.http === 303);
  t.equal(bLine?.ip, B, "B's with B's");
  t.notOk(
    lines.some((l) => l.path.startsWith("/cashier/autologin/") && l.ip === "127.0.0.1"),
    "none with the proxy's",
  );
});

t.test("the deposit a customer makes through the proxy records the customer's address; HSTS follows the proxy's protocol", async (t) => {
  const pin = `cust-proxy-${process.pid}`;
  const opened = await viaProxy(B, await freshLink(pin));
  const path = String(opened.headers.location);
  const page = await viaProxy(B, path);
  t.equal(page.status, 200);
  t.match(page.headers["strict-transport-security"], /max-age=/, "the proxy says https: HSTS");
  t.equal((await call(A, edgePort(), path)).headers["strict-transport-security"], undefined, "the edge itself, over plain HTTP: none");
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.text)?.[1] ?? "";
  const posted = await viaProxy(B, path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.66" },
    body: new URLSearchParams({
      session_token: field("session_token"),
      csrf_token: field("csrf_token"),
      submission_key: field("submission_key"),
      preset: "1000",
      card_number: "4111111111111111",
      card_exp: "12/30",
      cvv: "123",
      holder: "Jane Doe",
    }).toString(),
  });
  t.equal(posted.status, 303, "the deposit is made");
  const rows = await service().sql<{ ip: string }>("select customer->>'requester_ip' as ip from payment_order where pin = $1", [pin]);
  t.same(
    rows.map((r) => r.ip),
    [B],
    "its requester_ip is the customer's: neither the proxy's nor what the customer claimed",
  );
});

t.test("a client that reaches the edge itself is no proxy: its forwarding headers are ignored", async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    statuses.push((await call(SPOOFER, edgePort(), madeUp(100 + i), { headers: { "X-Forwarded-For": B, "X-Forwarded-Proto": "https" } })).status);
  }
  t.same(statuses, [...Array(10).fill(410), 429], "the spoofer spends its own limit");
  const spoofed = accessLines().filter((l) => l.path.startsWith("/cashier/autologin/") && l.ip === SPOOFER);
  t.equal(spoofed.length, 11, "and is logged as itself");
  t.equal((await viaProxy(B, await freshLink())).status, 303, "B is untouched");
  const page = await call(SPOOFER, edgePort(), "/cashier/autologin/x", { headers: { "X-Forwarded-Proto": "https" } });
  t.equal(page.headers["strict-transport-security"], undefined, "nor does its X-Forwarded-Proto earn HSTS");
});
