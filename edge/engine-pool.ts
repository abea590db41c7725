/**
 * Several engines behind one edge. ENGINE_URL may list engines separated by
 * commas, and a host name stands for every address it resolves to (looked up
 * again every few seconds): docker-compose's service name gives one address per
 * `engine` replica. Calls go round-robin over one HTTP/2 transport per address,
 * so a scaled-out engine shares the load without a proxy in front of it.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { engineUnreachable } from "./engine-down.ts";
import type { ClosableTransport } from "./grpc-transport.ts";

export interface EnginePool {
  /** Round-robin over the engines; `close()` ends every connection and the lookups. */
  transport: ClosableTransport;
}

const RESOLVE_EVERY_MS = 5000;
const DOWN_FOR_MS = 5000;

/** "http://a:1, http://b:2" -> the URLs, trimmed. */
export function engineUrls(engineUrl: string): string[] {
  return engineUrl
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

async function addressesOf(url: string): Promise<{ target: string; servername?: string }[]> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) || host === "localhost") return [{ target: url }];
  const found = await lookup(host, { all: true });
  return found.map((a) => {
    const v = new URL(url);
    v.hostname = a.family === 6 ? `[${a.address}]` : a.address;
    // TLS still checks the certificate against the name that was configured.
    return { target: v.toString().replace(/\/$/, ""), servername: host };
  });
}

/**
 * Starts with the URLs as given (usable at once) and replaces them with one
 * transport per resolved address as soon as the first lookup answers.
 */
export function createEnginePool(engineUrl: string, make: (target: string, servername?: string) => ClosableTransport): EnginePool {
  const urls = engineUrls(engineUrl);
  if (urls.length === 0) throw new Error("ENGINE_URL names no engine");
  const transports = new Map<string, ClosableTransport>(urls.map((u) => [u, make(u)]));
  let rotation: ClosableTransport[] = [...transports.values()];
  let closed = false;
  let next = 0;
  const refresh = async () => {
    const all = (await Promise.all(urls.map((u) => addressesOf(u).catch(() => [] as { target: string; servername?: string }[])))).flat();
    if (all.length === 0 || closed) return; // keep what we had rather than nothing
    for (const a of all) if (!transports.has(a.target)) transports.set(a.target, make(a.target, a.servername));
    const live = new Set(all.map((a) => a.target));
    const gone = [...transports].filter(([k]) => !live.has(k));
    for (const [k] of gone) transports.delete(k);
    rotation = [...transports.values()];
    // Calls in flight on a vanished address finish first: grpc-js closes a channel once its calls end.
    for (const [, x] of gone) x.close();
  };
  void refresh();
  const timer = setInterval(() => void refresh(), RESOLVE_EVERY_MS);
  timer.unref();
  // An engine that could not be reached sits out a few seconds instead of taking every other call.
  const downUntil = new Map<ClosableTransport, number>();
  const pick = (): ClosableTransport => {
    const now = Date.now();
    const up = rotation.filter((x) => (downUntil.get(x) ?? 0) <= now);
    const from = up.length > 0 ? up : rotation;
    return from[next++ % from.length];
  };
  return {
    transport: {
      // An engine that cannot be reached is skipped for this call: the next one
      // is tried once. Every edge RPC is safe to repeat: Process is idempotent on
      // merchant_id and order_id, a second challenge answer is refused and the
      // page shown as it stands, the others only read or sign.
      unary: async (...args) => {
        const first = pick();
        try {
          return await first.unary(...args);
        } catch (err) {
          // Only an engine that could not be reached: one that answered (even UNAVAILABLE, its database) is up.
          if (rotation.length < 2 || !engineUnreachable(err)) throw err;
          downUntil.set(first, Date.now() + DOWN_FOR_MS);
          // Another engine than the one that failed, whatever other calls picked meanwhile.
          const others = rotation.filter((x) => x !== first);
          return others[next++ % others.length].unary(...args);
        }
      },
      stream: (...args) => pick().stream(...args),
      close() {
        closed = true;
        clearInterval(timer);
        for (const x of transports.values()) x.close();
      },
    },
  };
}
