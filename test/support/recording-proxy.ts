/**
 * What an acquirer received, for tests that check a request Cashier made against the acquirer's published schema:
 * an HTTP proxy in front of the acquirer simulator that passes every request on, byte for byte, and keeps what it
 * passed (method, path, headers, body) with the simulator's status. The simulator keeps no record of the bodies it
 * is sent, and should not: this is the test's own wire tap, so that no production code changes for it. A merchant's
 * account points at the proxy's address instead of the simulator's.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the acquirer received it, and its answer's status. */
export interface Recorded {
  method: string;
  /** The path and query, as sent (e.g. /adyen/v71/payments). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent. */
  raw: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
  /** The simulator's HTTP status; 502 when it could not be reached. */
  status: number;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/** Headers of the hop, not of the request: not passed on. */
const HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

const parse = (raw: string): unknown => {
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
};

/** A recording proxy in front of `target` (a base URL: scheme, host and port). */
export class RecordingProxy {
  readonly recorded: Recorded[] = [];
  url = "";
  #server: Server | undefined;

  /** The simulator's base URL (scheme, host and port). */
  readonly target: string;

  constructor(target: string) {
    this.target = target;
  }

  async start(): Promise<this> {
    const server = createServer(async (req, res) => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      const raw = body.toString("utf8");
      const entry: Recorded = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, raw, json: parse(raw), status: 502 };
      this.recorded.push(entry);
      try {
        const answer = await fetch(`${this.target}${entry.path}`, {
          method: entry.method,
          headers,
          body: body.length > 0 ? body : undefined,
          redirect: "manual",
        });
        entry.status = answer.status;
        const out = Buffer.from(await answer.arrayBuffer());
        const back: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!HOP.has(k) && k !== "content-encoding") back[k] = v;
        });
        res.writeHead(answer.status, back).end(out);
      } catch {
        res.writeHead(502, { "content-type": "text/plain" }).end("the simulator could not be reached");
      }
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** The requests sent with `method` to `path` (exactly, query included), in the order they came. */
  sent(method: string, path: string): Recorded[] {
    return this.recorded.filter((r) => r.method === method && r.path === path);
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
