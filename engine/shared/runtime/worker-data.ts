/**
 * What the edge's and the Backoffice's worker threads are started with
 * (edge/worker.ts, edge/backoffice/worker.ts): plain values, so they cross to
 * the thread, typed here so that the starter (engine/main.ts, the edge's own
 * worker hosts) and the thread agree.
 */

/**
 * How the client trusts a TLS engine (an https:// base URL). `ca`: PEM of a
 * private CA (else the system's roots). `pinSha256`: accept exactly the
 * certificate with this SHA-256 fingerprint whatever names it carries, for the
 * loopback hop of `npm start`, where 127.0.0.1 is rarely among them.
 */
export interface EngineTrust {
  ca?: string;
  pinSha256?: string;
}

/** The edge's thread. */
export interface EdgeWorkerData {
  port: number;
  host: string;
  engineUrl: string;
  token: string;
  engineTrust?: EngineTrust;
  /** CASHIER_TRUSTED_PROXIES, as config.ts normalised them. */
  trustedProxies?: string[];
  /** The edge's metrics listener (METRICS_HOST, EDGE_METRICS_PORT); 127.0.0.1 on any free port when not given. */
  metrics?: { host: string; port: number; isDefault?: boolean };
  logLevel: string;
  logFile?: string;
}

/** The edge's listening message carries where its metrics are scraped. */
export interface EdgeListening {
  type: "listening";
  port: number;
  metricsPort: number;
  /** The metrics port was only a default, and taken: a free one was chosen. */
  metricsMovedFromDefault: boolean;
}

/** The Backoffice's thread. */
export interface BackofficeWorkerData {
  port: number;
  /** BACKOFFICE_PORT was unset: when its default is taken, listen on a free port instead. */
  portIsDefault?: boolean;
  host: string;
  engineUrl: string;
  token: string;
  engineTrust?: EngineTrust;
  /** PEM certificate and key: HTTPS only, Secure cookies, HSTS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  publicUrl?: string;
  /** CASHIER_TRUSTED_PROXIES, as config.ts normalised them. */
  trustedProxies?: string[];
  logLevel: string;
  logFile?: string;
}

/** The Backoffice's listening message carries its URL and whether its default port was taken. */
export interface BackofficeListening {
  type: "listening";
  port: number;
  url: string;
  movedFromDefault: boolean;
}
