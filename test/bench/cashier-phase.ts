/**
 * The bench's `cashier` phase: one customer's deposit through the hosted
 * Cashier's pages, end to end, as one measured request: the platform's
 * signed `POST /api/session`, the one-time autologin address (a 303), the
 * deposit page rendered, the form submitted (SubmitDeposit, approved, a 303)
 * and the result page rendered. A success is a flow that ends on "Payment
 * approved"; each step's own p50/p99 is printed under the table.
 *
 * The Cashier limits session starts and submits per client address
 * (edge/cashier/rate-limits.ts), as it should for customers; the load comes
 * from one loopback address per worker (127.0.0.2, 127.0.0.3, ... all of
 * 127/8 is loopback on Linux), each far under the limits, so the limiter is
 * measured in the path without refusing the bench.
 */
import http from "node:http";
import { sessionBody } from "../support/cashier-session.ts";
import type { Service } from "../support/service.ts";
import { sign } from "../support/wire.ts";

const STEPS = ["session start", "autologin", "deposit page", "submit", "result page"] as const;
type Step = (typeof STEPS)[number];

interface Reply {
  status: number;
  location: string;
  text: string;
}

function request(agent: http.Agent, url: URL, method: "GET" | "POST", body: string | undefined, type: string | undefined, timeoutMs: number): Promise<Reply> {
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
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error("request timed out")));
    req.end(payload);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

let customers = 0;

/** The phase's shot (one deposit through the pages) for `concurrency` workers. */
export function cashierShot(svc: Service, concurrency: number, timeoutMs: number) {
  const base = new URL(svc.edgeUrl);
  const agents = Array.from(
    { length: concurrency },
    (_, i) => new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.0.${Math.floor((i + 2) / 250)}.${((i + 2) % 250) + 1}` }),
  );
  const latencies = new Map<Step, number[]>(STEPS.map((s) => [s, []]));
  let next = 0;

  const timed = async (step: Step, fn: () => Promise<Reply>): Promise<Reply> => {
    const started = performance.now();
    const reply = await fn();
    latencies.get(step)!.push(performance.now() - started);
    return reply;
  };

  const shot = async (): Promise<string | undefined> => {
    const agent = agents[next++ % agents.length];
    customers += 1;
    try {
      const start = sign(sessionBody({ pin: `bench-${process.pid}-${customers}` }));
      const session = await timed("session start", () =>
        request(agent, new URL("/api/session", base), "POST", JSON.stringify(start), "application/json", timeoutMs),
      );
      if (session.status !== 200) return `session start: http ${session.status}`;
      const autologin = new URL(JSON.parse(session.text).redirect_url as string);
      const redeemed = await timed("autologin", () => request(agent, new URL(autologin.pathname, base), "GET", undefined, undefined, timeoutMs));
      if (redeemed.status !== 303) return `autologin: http ${redeemed.status}`;
      const pageUrl = new URL(redeemed.location, base);
      const page = await timed("deposit page", () => request(agent, pageUrl, "GET", undefined, undefined, timeoutMs));
      if (page.status !== 200) return `deposit page: http ${page.status}`;
      const sessionToken = /name="session_token" value="([^"]+)"/.exec(page.text)?.[1];
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
      const submissionKey = /name="submission_key" value="([^"]+)"/.exec(page.text)?.[1];
      if (!sessionToken || !csrf || !submissionKey) return "deposit page: no form tokens";
      const form = new URLSearchParams({
        session_token: sessionToken,
        csrf_token: csrf,
        submission_key: submissionKey,
        amount: "25",
        card_number: "4111111111111111",
        card_exp: "12/30",
        cvv: "123",
        holder: "Jane Doe",
      }).toString();
      const submitted = await timed("submit", () => request(agent, pageUrl, "POST", form, "application/x-www-form-urlencoded", timeoutMs));
      if (submitted.status !== 303 || !submitted.location.includes("/result/")) return `submit: http ${submitted.status}`;
      const result = await timed("result page", () => request(agent, new URL(submitted.location, base), "GET", undefined, undefined, timeoutMs));
      if (result.status !== 200 || !result.text.includes("<h1>Payment approved</h1>")) return `result page: http ${result.status}, not approved`;
      return undefined;
    } catch (err) {
      return err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 120) : String(err).slice(0, 120);
    }
  };

  return {
    shot,
    /** Forgets the warm-up's latencies: call when the measured window starts (or never: they are a small share). */
    close(): void {
      for (const a of agents) a.destroy();
    },
    /** One line per step: its p50 and p99 over every call made in the phase. */
    report(): string[] {
      return STEPS.map((s) => {
        const sorted = latencies.get(s)!.sort((a, b) => a - b);
        return `  cashier step ${s.padEnd(13)} n ${String(sorted.length).padStart(6)}  p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`;
      });
    },
  };
}
