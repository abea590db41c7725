/**
 * The acquirer simulator as an HTTP service (node:http): the acquirers
 * behind sim-a and sim-b (sim-routes.ts) over one durable ledger. Built but
 * not started by main.ts alone; tests start it in process on a free port.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Acquirers } from "./acquirer.ts";
import type { Dialect } from "./dialect.ts";
import { FaultSwitch } from "./faults.ts";
import { BodyTooLarge, send } from "./http.ts";
import { Ledger, type LedgerLog, LedgerUnavailable } from "./ledger.ts";
import { SimBook } from "./sim-book.ts";
import { simDialect } from "./sim-routes.ts";

export interface AcquirerSimOptions {
  /** Where the ledger lives. */
  dataDir: string;
  host?: string;
  /** 0: any free port. */
  port: number;
  /** API key by acquirer name (sim-a, sim-b). */
  keys: Record<string, string>;
  /** Enables /admin/faults. */
  testMode?: boolean;
  now?: () => number;
  /** Where the ledger's recoveries and failures are logged. */
  log?: LedgerLog;
}

export interface AcquirerSim {
  url: string;
  port: number;
  /** The ledger file (tests read it). */
  ledgerFile: string;
  close(): Promise<void>;
}

const SILENT: LedgerLog = { warn() {}, error() {} };

export async function startAcquirerSim(opts: AcquirerSimOptions): Promise<AcquirerSim> {
  const log = opts.log ?? SILENT;
  const ledger = new Ledger(opts.dataDir, log);
  const book = new SimBook();
  await ledger.open((e) => book.apply(e));

  const faults = new FaultSwitch();
  const dialects: Dialect[] = [simDialect({ acquirers: new Acquirers(ledger, book, opts.now), faults, keys: opts.keys, testMode: opts.testMode ?? false })];

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
    await ledger.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    ledgerFile: ledger.file,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ledger.close();
    },
  };
}
