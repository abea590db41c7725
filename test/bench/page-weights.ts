/**
 * `npm run bench -- --page-weights [--flows N]`: what a customer's browser
 * downloads and waits for in one deposit through the hosted Cashier (issue 33:
 * the deposit flow's page weights and times). One customer at a time, N flows
 * (default 20): the platform's signed session start, the autologin address,
 * the deposit page, the form submitted and the result page, as cashier-phase.ts
 * walks them. For the two pages a customer sees, every subresource the HTML
 * names (stylesheets, scripts, images, icons) is fetched once, as a browser
 * with an empty cache would on the first flow; the result page counts only what
 * the deposit page had not brought. Bytes are as sent (the edge does not
 * compress; a proxy in front may) and, beside them, gzipped here at level 6,
 * the size behind a compressing proxy. Times are each step's p50 over the flows.
 *
 * Kept free of the rest of the bench (it needs only the service and the wire
 * helpers), so that it runs as it is on an older commit for a before/after.
 */
import http from "node:http";
import { gzipSync } from "node:zlib";
import { sessionBody } from "../support/cashier-session.ts";
import { startService } from "../support/service.ts";
import { sign } from "../support/wire.ts";

interface Reply {
  status: number;
  location: string;
  body: Buffer;
}

function request(agent: http.Agent, url: URL, method: "GET" | "POST", body?: string, type?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body, "utf8");
    const headers: Record<string, string | number> = { "accept-language": "en" };
    if (payload) {
      headers["content-type"] = type ?? "application/octet-stream";
      headers["content-length"] = payload.length;
    }
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ""), body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The same-origin subresources an HTML page names. */
function subresources(html: string, base: URL): URL[] {
  const found = new Set<string>();
  for (const re of [/<link\b[^>]*\bhref="([^"]+)"/g, /<script\b[^>]*\bsrc="([^"]+)"/g, /<img\b[^>]*\bsrc="([^"]+)"/g]) {
    for (const m of html.matchAll(re)) {
      const tag = m[0];
      if (tag.startsWith("<link") && !/\brel="(stylesheet|icon|preload|modulepreload|manifest)"/.test(tag)) continue;
      const u = new URL(m[1].replaceAll("&amp;", "&"), base);
      if (u.origin === base.origin) found.add(u.href);
    }
  }
  return [...found].map((h) => new URL(h));
}

interface Weight {
  html: number;
  htmlGz: number;
  files: number;
  bytes: number;
  gz: number;
  /** Each subresource's path and bytes as sent. */
  names: string[];
}

async function weigh(agent: http.Agent, page: Reply, url: URL, seen: Set<string>): Promise<Weight> {
  const w: Weight = { html: page.body.length, htmlGz: gzipSync(page.body, { level: 6 }).length, files: 0, bytes: 0, gz: 0, names: [] };
  for (const u of subresources(page.body.toString("utf8"), url)) {
    if (seen.has(u.href)) continue;
    seen.add(u.href);
    const r = await request(agent, u, "GET");
    if (r.status !== 200) throw new Error(`${u.pathname}: http ${r.status}`);
    w.files += 1;
    w.bytes += r.body.length;
    w.gz += gzipSync(r.body, { level: 6 }).length;
    w.names.push(`${u.pathname.replace(/[0-9a-f]{16,}/g, "<hash>")} ${(r.body.length / 1024).toFixed(1)} KiB`);
  }
  return w;
}

const STEPS = ["session start", "autologin", "deposit page", "submit", "result page"] as const;

export async function pageWeightsMain(args: string[]): Promise<void> {
  const at = args.indexOf("--flows");
  const flows = at >= 0 ? Number(args[at + 1]) : 20;
  if (!Number.isInteger(flows) || flows < 1) throw new Error(`--flows needs a whole number from 1, got ${JSON.stringify(args[at + 1] ?? null)}`);
  const svc = await startService({ LOG_LEVEL: "warn" });
  const times = new Map<string, number[]>(STEPS.map((s) => [s, []]));
  const weights: { deposit?: Weight; result?: Weight } = {};
  try {
    const base = new URL(svc.edgeUrl);
    for (let i = 0; i < flows; i++) {
      const agent = new http.Agent({ keepAlive: true });
      const timed = async (step: string, fn: () => Promise<Reply>) => {
        const began = performance.now();
        const r = await fn();
        times.get(step)?.push(performance.now() - began);
        return r;
      };
      try {
        const start = JSON.stringify(sign(sessionBody({ pin: `weights-${process.pid}-${i}` })));
        const session = await timed("session start", () => request(agent, new URL("/api/session", base), "POST", start, "application/json"));
        if (session.status !== 200) throw new Error(`session start: http ${session.status}: ${session.body.toString("utf8").slice(0, 200)}`);
        const autologin = new URL(JSON.parse(session.body.toString("utf8")).redirect_url as string);
        const redeemed = await timed("autologin", () => request(agent, new URL(autologin.pathname, base), "GET"));
        if (redeemed.status !== 303) throw new Error(`autologin: http ${redeemed.status}`);
        const pageUrl = new URL(redeemed.location, base);
        const page = await timed("deposit page", () => request(agent, pageUrl, "GET"));
        if (page.status !== 200) throw new Error(`deposit page: http ${page.status}`);
        const html = page.body.toString("utf8");
        const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
        const form = new URLSearchParams({
          session_token: field("session_token"),
          csrf_token: field("csrf_token"),
          submission_key: field("submission_key"),
          amount: "25",
          card_number: "4111111111111111",
          card_exp: "12/30",
          cvv: "123",
          holder: "Jane Doe",
        }).toString();
        const submitted = await timed("submit", () => request(agent, pageUrl, "POST", form, "application/x-www-form-urlencoded"));
        if (submitted.status !== 303) throw new Error(`submit: http ${submitted.status}`);
        const resultUrl = new URL(submitted.location, base);
        const result = await timed("result page", () => request(agent, resultUrl, "GET"));
        if (result.status !== 200) throw new Error(`result page: http ${result.status}`);
        if (i === 0) {
          // The first flow, as a browser with an empty cache loads it.
          const seen = new Set<string>();
          weights.deposit = await weigh(agent, page, pageUrl, seen);
          weights.result = await weigh(agent, result, resultUrl, seen);
        }
      } finally {
        agent.destroy();
      }
    }
  } finally {
    await svc.stop();
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const line = (name: string, w: Weight) =>
    `  ${name.padEnd(13)} html ${kb(w.html).padStart(9)} (gzip ${kb(w.htmlGz).padStart(8)})  + ${String(w.files).padStart(2)} files ${kb(w.bytes).padStart(9)} (gzip ${kb(w.gz).padStart(8)})  = ${kb(w.html + w.bytes).padStart(9)} (gzip ${kb(w.htmlGz + w.gz)})`;
  console.log(`page weights, the first flow with an empty cache (the result page: what the deposit page had not brought):`);
  for (const [name, w] of [
    ["deposit page", weights.deposit],
    ["result page", weights.result],
  ] as const) {
    if (!w) continue;
    console.log(line(name, w));
    if (w.names.length > 0) console.log(`                ${w.names.join(", ")}`);
  }
  console.log(`times, one customer at a time, ${flows} flows (p50 / max ms):`);
  for (const [step, xs] of times) {
    const s = [...xs].sort((a, b) => a - b);
    console.log(`  ${step.padEnd(13)} ${s[Math.floor((s.length - 1) / 2)].toFixed(1).padStart(7)} / ${s[s.length - 1].toFixed(1).padStart(7)}`);
  }
  const flowP50 = [...times.values()].reduce((a, xs) => a + [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)], 0);
  console.log(`  the flow's steps' p50s summed: ${flowP50.toFixed(1)} ms`);
}
