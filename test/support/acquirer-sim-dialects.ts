/**
 * The acquirer simulator's Checkout.com and Adyen stand-ins in this process:
 * a simulator on a free port and a temp data dir with one account at each,
 * whose webhooks go to a receiver here that records them and answers as the
 * test says (quick retries, so that a test sees them in a second). Calls as
 * the connectors make them: a Bearer secret key (Checkout.com), X-API-Key
 * (Adyen).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Test } from "tap";
import { type AcquirerSim, startAcquirerSim } from "../../engine/payments/processors/acquirer-sim/server.ts";
import { TEST_KEYS } from "./acquirer-sim.ts";
import { until } from "./until.ts";

export const CKO = { secret_key: "sk_sbox_test-checkout-key-0123", webhook_secret: "whsec-test-checkout-0123456789" };
export const ADYEN = {
  api_key: "AQE-test-adyen-api-key-0123",
  merchant_account: "ShopEU",
  hmac_key: "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056",
};
export const CHANNEL = "pc_aaaaaaaaaaaaaaaaaaaaaaaaaa";

/** One webhook as it arrived: its raw body and headers. */
export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: Record<string, unknown>;
}

/** An HTTP receiver of webhooks; `answer` decides each reply (default: 200, "[accepted]"). */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Received) => { status: number; body?: string } = () => ({ status: 200, body: "[accepted]" });
  #server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const r: Received = { path: req.url ?? "/", headers: req.headers, raw, body: JSON.parse(raw || "{}") };
        this.received.push(r);
        const a = this.answer(r);
        res.writeHead(a.status, { "content-type": "text/plain" }).end(a.body ?? "");
      });
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Waits until `count` webhooks matching `match` arrived, and returns them. */
  async waitFor(match: (r: Received) => boolean, count = 1, timeoutMs = 10_000): Promise<Received[]> {
    const ok = await until(async () => this.received.filter(match).length >= count, timeoutMs, 20);
    if (!ok) throw new Error(`waited ${timeoutMs} ms for ${count} webhook(s); got ${this.received.filter(match).length} of ${this.received.length}`);
    return this.received.filter(match);
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

export interface DialectSim {
  sim: AcquirerSim;
  dir: string;
  hooks: WebhookReceiver;
  /** Stops the simulator and starts it again on the same ledger. */
  restart(): Promise<void>;
  /** A call to the Checkout.com stand-in (path after /checkout). */
  cko(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** A call to the Adyen stand-in (path after /adyen/v71). */
  adyen(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { ...init, redirect: "manual" });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** A simulator with a Checkout.com and an Adyen account whose webhooks go to a receiver of this test; stopped with the test. */
export async function startDialectSim(t: Test, opts: { now?: () => number } = {}): Promise<DialectSim> {
  const dir = mkdtempSync(join(tmpdir(), "acquirer-dialects-"));
  const hooks = await new WebhookReceiver().start();
  const accounts = {
    checkout: [{ ...CKO, webhook_url: `${hooks.url}/webhooks/m-test/cko-main` }],
    adyen: [{ ...ADYEN, webhook_url: `${hooks.url}/webhooks/m-test/adyen-eu` }],
  };
  const start = () =>
    startAcquirerSim({
      dataDir: dir,
      port: 0,
      keys: TEST_KEYS,
      testMode: true,
      accounts,
      now: opts.now,
      webhookTiming: { firstDelayMs: 20, maxDelayMs: 200, timeoutMs: 2000 },
    });
  const self: DialectSim = {
    sim: await start(),
    dir,
    hooks,
    async restart() {
      await self.sim.close();
      self.sim = await start();
    },
    cko: (method, path, body, headers = {}) =>
      call(`${self.sim.url}/checkout${path}`, {
        method,
        headers: { authorization: `Bearer ${CKO.secret_key}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    adyen: (path, body, headers = {}) =>
      call(`${self.sim.url}/adyen/v71${path}`, {
        method: "POST",
        headers: { "x-api-key": ADYEN.api_key, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
  };
  t.teardown(async () => {
    await self.sim.close();
    await hooks.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return self;
}

/**
 * The merchants file of the tests at this simulator, so that its accounts are written once: `m-cko`, whose one
 * account (`cko-main`) is at the Checkout.com stand-in, and `m-adyen`, whose one account (`adyen-eu`) is at the
 * Adyen stand-in, both at `simUrl` with this file's credentials. `common` goes into each merchant (its secret, its
 * platform).
 */
export function dialectMerchants(simUrl: string, common: Record<string, unknown>) {
  return {
    merchants: [
      {
        ...common,
        merchant_id: "m-cko",
        processors: ["cko-main"],
        processor_accounts: [
          {
            name: "cko-main",
            connector: "checkout",
            url: `${simUrl}/checkout`,
            credentials: { secret_key: CKO.secret_key, webhook_secret: CKO.webhook_secret },
            settings: { processing_channel_id: CHANNEL },
          },
        ],
        frontends: [{ name: "cko-usd", base_currency: "USD" }],
      },
      {
        ...common,
        merchant_id: "m-adyen",
        processors: ["adyen-eu"],
        processor_accounts: [
          {
            name: "adyen-eu",
            connector: "adyen",
            url: `${simUrl}/adyen/v71`,
            credentials: { api_key: ADYEN.api_key, hmac_key: ADYEN.hmac_key },
            settings: { merchant_account: ADYEN.merchant_account },
          },
        ],
        frontends: [{ name: "adyen-eur", base_currency: "EUR" }],
      },
    ],
  };
}
