/**
 * Who the client is, behind reverse proxies: the peer of the socket, unless
 * that peer is a trusted proxy (CASHIER_TRUSTED_PROXIES), in which case
 * X-Forwarded-For is walked from its right end (the address the nearest proxy
 * saw) past every trusted proxy, and the client is the right-most untrusted
 * address. Everything left of it was written by the client or by proxies
 * that are not ours, and is never believed. X-Forwarded-Proto is believed
 * from a trusted peer only: its right-most value, the one that proxy wrote.
 * An entry that is no IP address ends the walk at the last address known
 * good; a protocol other than http or https is ignored. Pure: the edge's and
 * the Backoffice's middleware (edge/middleware/client.ts) feed it the socket
 * and the headers. RFC 7239's Forwarded header is not read: nginx, Caddy and
 * HAProxy all write X-Forwarded-For.
 */
import { canonicalAddress, inNetworks, type Network, networkOf } from "../../../engine/shared/config/trusted-proxies.ts";

/** The trusted proxies' networks, parsed once per app. */
export type ProxyTrust = readonly Network[];

/** `networks` as CASHIER_TRUSTED_PROXIES lists them (config.ts checked them); a wrong one is a programming error. */
export function proxyTrust(networks: readonly string[]): ProxyTrust {
  return networks.map((text) => {
    const net = networkOf(text);
    if (!net) throw new Error(`not an address or network: ${text}`);
    return net;
  });
}

export interface Peer {
  /** The socket's remote address (undefined once the socket is gone). */
  address: string | undefined;
  /** The socket itself is TLS. */
  encrypted: boolean;
}

/** The forwarding headers as Node gives them: a string, several (one per header line), or none. */
export interface ForwardedHeaders {
  forwardedFor?: string | string[];
  forwardedProto?: string | string[];
}

export interface Client {
  /** The client's IP address in canonical form (IPv4-mapped IPv6 as IPv4); "" when unknown. */
  address: string;
  protocol: "http" | "https";
}

/** An X-Forwarded-For entry as an address: bare, `[v6]`, `[v6]:port` or `v4:port` (some proxies add the port). */
function entryAddress(entry: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return canonicalAddress(bracketed[1]);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return canonicalAddress(v4WithPort ? v4WithPort[1] : entry);
}

/** A header's comma-separated values over all its lines, in order, trimmed. */
function values(header: string | string[] | undefined): string[] {
  const lines = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return lines.flatMap((line) => line.split(",")).map((v) => v.trim());
}

/** The client of a request: `peer` and, when `peer` is a trusted proxy, the forwarding headers. */
export function forwardedClient(peer: Peer, headers: ForwardedHeaders, trust: ProxyTrust): Client {
  const own: Client = { address: canonicalAddress(peer.address ?? "") ?? peer.address ?? "", protocol: peer.encrypted ? "https" : "http" };
  if (!inNetworks(own.address, trust)) return own;
  let address = own.address;
  const chain = values(headers.forwardedFor);
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = entryAddress(chain[i]);
    // Garbage (or "unknown") where a trusted proxy should have written an address: nothing to its left is believed.
    if (hop === undefined) break;
    address = hop;
    if (!inNetworks(hop, trust)) break;
  }
  const proto = values(headers.forwardedProto).at(-1)?.toLowerCase();
  return { address, protocol: proto === "http" || proto === "https" ? proto : own.protocol };
}
