/**
 * One HTTP POST to a merchant's platform, as every callback makes it: a
 * timeout on the whole call, redirects never followed, the reply read up to
 * 64 KiB and no further (reply-bound.ts: past it the connection is closed and
 * what was read is judged as it is), and the SSRF guard (address-guard.ts: loopback, private,
 * link-local and metadata addresses refused before anything is sent, an address
 * written in the URL at once and a name in the connection's own lookup, so a
 * rebinding name cannot slip through) unless CASHIER_CALLBACK_ALLOW_PRIVATE=1.
 * It never throws: every failure is a SendResult with its reason.
 */
import http from "node:http";
import https from "node:https";
import { ownEntry } from "../../shared/own-entry.ts";
import type { Send, SendResult } from "../ports/callbacks.ts";
import { ADDRESS_REFUSED, addressRefusedReason, guardedLookup, refusedAddress } from "./address-guard.ts";
import { BoundedBody } from "./reply-bound.ts";

/**
 * The cause in a few words of our own, by the error's code: it reaches the
 * platform (a Validation that could not be made is declined with it) and the
 * operator's delivery record, so it names the host and what happened, never a
 * library's sentence.
 */
const NETWORK_CAUSES: Record<string, (host: string) => string> = {
  ECONNREFUSED: (h) => `connection refused by ${h}`,
  ECONNRESET: (h) => `connection reset by ${h}`,
  EPIPE: (h) => `connection closed by ${h} while sending`,
  ETIMEDOUT: (h) => `connection to ${h} timed out`,
  EHOSTUNREACH: (h) => `${h} is unreachable`,
  ENETUNREACH: (h) => `${h} is unreachable`,
  ENOTFOUND: (h) => `${h.replace(/:\d+$/, "")} does not resolve (DNS)`,
  EAI_AGAIN: (h) => `${h.replace(/:\d+$/, "")} could not be resolved now (DNS)`,
};

export function networkCause(err: NodeJS.ErrnoException, url: URL): string {
  const code = typeof err.code === "string" ? err.code : "";
  const known = ownEntry(NETWORK_CAUSES, code);
  if (known) return known(url.host);
  // TLS: the certificate's and the handshake's codes (CERT_HAS_EXPIRED, ERR_SSL_WRONG_VERSION_NUMBER...) name the cause.
  if (/^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_|EPROTO$)/.test(code)) return `TLS with ${url.host} failed (${code})`;
  return code ? `network error with ${url.host} (${code})` : `network error with ${url.host}`;
}

/** The guard's connections: each name resolved by its lookup, no connection kept for another call. */
const GUARDED = { "http:": new http.Agent({ lookup: guardedLookup }), "https:": new https.Agent({ lookup: guardedLookup }) } as const;

export function createSender(opts: { allowPrivate: boolean }): Send {
  return (req) =>
    new Promise<SendResult>((resolve) => {
      const started = performance.now();
      let settled = false;
      const done = (r: Omit<SendResult, "durationMs">) => {
        if (settled) return;
        settled = true;
        resolve({ ...r, durationMs: Math.round(performance.now() - started) });
      };
      let url: URL;
      try {
        url = new URL(req.url);
        if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
      } catch {
        done({ httpStatus: 0, body: "", error: "the callback URL is not an http(s) URL", refusedAddress: false });
        return;
      }
      if (!opts.allowPrivate && refusedAddress(url.hostname)) {
        done({ httpStatus: 0, body: "", error: addressRefusedReason(url.hostname), refusedAddress: true });
        return;
      }
      const lib = url.protocol === "https:" ? https : http;
      const agent = opts.allowPrivate ? undefined : GUARDED[url.protocol as "http:" | "https:"];
      const r = lib.request(url, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "user-agent": "cashier-callbacks/1",
          ...req.headers,
          "content-length": String(Buffer.byteLength(req.body)),
        },
      });
      const timer = setTimeout(() => {
        done({ httpStatus: 0, body: "", error: `no reply within ${req.timeoutMs} ms`, refusedAddress: false });
        r.destroy();
      }, req.timeoutMs);
      r.on("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const refused = err.code === ADDRESS_REFUSED;
        done({ httpStatus: 0, body: "", error: refused ? addressRefusedReason(url.hostname) : `no reply: ${networkCause(err, url)}`, refusedAddress: refused });
      });
      r.on("response", (res) => {
        const body = new BoundedBody();
        const status = res.statusCode ?? 0;
        const finish = (cut: boolean) => {
          clearTimeout(timer);
          const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : "";
          done({ httpStatus: status, body: body.text(), error, refusedAddress: false, ...(cut ? { cut: true } : {}) });
        };
        res.on("data", (c: Buffer) => {
          if (body.push(c)) return;
          // Past the bound: judged on what was read, and not one more byte taken from the platform.
          finish(true);
          r.destroy();
        });
        res.on("error", () => {});
        res.on("end", () => finish(false));
      });
      r.end(req.body);
    });
}
