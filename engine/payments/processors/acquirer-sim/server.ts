/**
 * The acquirer simulator as an HTTP service (node:http): the acquirers
 * behind sim-a and sim-b (sim-routes.ts), and stand-ins for Checkout.com
 * (/checkout) and Adyen (/adyen), all over one durable ledger. Built but not
 * started by main.ts alone; tests start it in process on a free port.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AccountBook, type AdyenAccount, type CheckoutAccount, type SimAccounts } from "./accounts.ts";
import { Acquirers } from "./acquirer.ts";
import { adminAccounts } from "./admin-accounts.ts";
import { AdyenBook } from "./adyen/book.ts";
import { adyenDialect } from "./adyen/routes.ts";
import { CheckoutBook } from "./checkout/book.ts";
import { checkoutDialect } from "./checkout/routes.ts";
import type { Dialect } from "./dialect.ts";
import { FaultSwitch } from "./faults.ts";
import { BodyTooLarge, send } from "./http.ts";
import { IdempotencyBook } from "./idempotency.ts";
import { KeyLock } from "./key-lock.ts";
import { type Entry, Ledger, type LedgerLog, LedgerUnavailable } from "./ledger.ts";
import { SimBook } from "./sim-book.ts";
import { simDialect } from "./sim-routes.ts";
import { type WebhookEntry, WebhookSender, type WebhookTiming } from "./webhook-sender.ts";

export interface AcquirerSimOptions {
  /** Where the ledger lives. */
  dataDir: string;
  host?: string;
  /** 0: any free port. */
  port: number;
  /** API key by acquirer name (sim-a, sim-b). */
  keys: Record<string, string>;
  /** The Checkout.com and Adyen accounts; none: those dialects answer 401. */
  accounts?: Partial<SimAccounts>;
  /** Enables /admin/faults and /admin/accounts. */
  testMode?: boolean;
  now?: () => number;
  /** Where the ledger's recoveries and failures and the webhooks' retries are logged. */
  log?: LedgerLog;
  webhookTiming?: Partial<WebhookTiming>;
}

export interface AcquirerSim {
  url: string;
  port: number;
  /** The ledger file (tests read it). */
  ledgerFile: string;
  /** Webhooks written but not acknowledged yet (tests wait on it). */
  pendingWebhooks(): WebhookEntry[];
  close(): Promise<void>;
}

const SILENT: LedgerLog = { warn() {}, error() {} };

export async function startAcquirerSim(opts: AcquirerSimOptions): Promise<AcquirerSim> {
  const log = opts.log ?? SILENT;
  const now = opts.now ?? Date.now;
  const ledger = new Ledger(opts.dataDir, log);
  const books = { sim: new SimBook(), idempotency: new IdempotencyBook(), checkout: new CheckoutBook(), adyen: new AdyenBook() };
  const webhooks = new WebhookSender(ledger, { timing: opts.webhookTiming, log, now });
  await ledger.open((e: Entry) => {
    if (e.t.startsWith("cko.")) books.checkout.apply(e);
    else if (e.t.startsWith("adyen.")) books.adyen.apply(e);
    else if (e.t.startsWith("webhook")) webhooks.apply(e);
    else if (e.t === "idem") books.idempotency.apply(e);
    else books.sim.apply(e);
  });
  webhooks.start();

  const faults = new FaultSwitch();
  const locks = new KeyLock();
  const accounts = {
    checkout: new AccountBook<CheckoutAccount>(opts.accounts?.checkout ?? [], (a) => a.secret_key),
    adyen: new AccountBook<AdyenAccount>(opts.accounts?.adyen ?? [], (a) => a.api_key),
  };
  const shared = { ledger, idempotency: books.idempotency, faults, locks, now };
  const dialects: Dialect[] = [
    checkoutDialect({ ...shared, book: books.checkout, accounts: accounts.checkout }),
    adyenDialect({ ...shared, book: books.adyen, accounts: accounts.adyen }),
    simDialect({
      acquirers: new Acquirers(ledger, books.sim, opts.now),
      faults,
      keys: opts.keys,
      testMode: opts.testMode ?? false,
      admin: adminAccounts(accounts),
    }),
  ];

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    const dialect = dialects.find((d) => url.pathname.startsWith(d.prefix)) as Dialect;
    dialect.route(req, url).then(
      (answer) => {
        if (answer && !res.destroyed) send(res, answer);
      },
      (err: Error) => {
        if (res.destroyed) return;
        // A body that is not JSON, or too large, is the caller's mistake; a full disk is "unavailable"; anything else is ours.
        if (err instanceof SyntaxError) send(res, dialect.refusal("not_json"));
        else if (err instanceof BodyTooLarge) send(res, dialect.refusal("too_large"));
        else if (err instanceof LedgerUnavailable) send(res, dialect.refusal("unavailable"));
        else {
          log.error({ err: err.message, path: url.pathname }, "acquirer simulator: internal error");
          send(res, dialect.refusal("internal"));
        }
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port, opts.host ?? "127.0.0.1", () => resolve());
    });
  } catch (err) {
    webhooks.close();
    await ledger.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    ledgerFile: ledger.file,
    pendingWebhooks: () => webhooks.pending(),
    async close() {
      webhooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ledger.close();
    },
  };
}
