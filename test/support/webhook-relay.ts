/**
 * The network between an acquirer and Cashier's edge, for crash tests: an HTTP relay that passes each webhook on,
 * byte for byte, to wherever the edge listens now (a restarted engine's edge has another port), and answers the
 * acquirer with what the edge answered, or 502 when nothing listens there. It can hold webhooks back (a slow
 * network), so that a test decides when they reach Cashier: after the engine is killed, after its restart. Every
 * pass is recorded with the edge's answer.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One webhook passed on, and what came back from the edge. */
export interface Relayed {
  path: string;
  body: string;
  /** The edge's HTTP status; 502 when the edge could not be reached. */
  status: number;
  answer: string;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/** Headers worth passing on: the acquirer's own, not the hop's. */
const HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export class WebhookRelay {
  readonly relayed: Relayed[] = [];
  url = "";
  #server: Server | undefined;
  /** The edge's base URL; webhooks go to the same path there. */
  #target = "";
  #holding = true;
  #released: (() => void)[] = [];

  /** Starts holding every webhook until `pass` is called. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void this.#relay(req).then(
        ({ status, answer }) => res.writeHead(status, { "content-type": "text/plain" }).end(answer),
        () => res.destroy(),
      );
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** From now on webhooks go on to `edgeUrl` (those held are let go). */
  pass(edgeUrl: string): void {
    this.#target = edgeUrl;
    this.#holding = false;
    for (const go of this.#released.splice(0)) go();
  }

  /** From now on webhooks wait here until the next `pass`. */
  hold(): void {
    this.#holding = true;
  }

  async #relay(req: IncomingMessage): Promise<{ status: number; answer: string }> {
    const body = await readBody(req);
    while (this.#holding) await new Promise<void>((go) => this.#released.push(go));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && typeof v === "string") headers[k] = v;
    const path = req.url ?? "/";
    let status = 502;
    let answer = "the edge could not be reached";
    try {
      const res = await fetch(`${this.#target}${path}`, { method: "POST", headers, body });
      status = res.status;
      answer = await res.text();
    } catch {}
    this.relayed.push({ path, body: body.toString("utf8"), status, answer });
    return { status, answer };
  }

  async stop(): Promise<void> {
    this.pass(this.#target);
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
