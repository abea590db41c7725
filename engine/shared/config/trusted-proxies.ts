/**
 * CASHIER_TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For and
 * X-Forwarded-Proto the edge and the Backoffice believe (edge/pages/kit/forwarded.ts
 * walks the chain). Addresses and networks are read here, strictly, so that a
 * setting the operator mistyped stops the start instead of trusting nothing
 * (or more than meant); in the shared layer, as both processes read it.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { ConfigError, list } from "./env-readers.ts";

/** A network: its address and prefix length. */
export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * One IP address in its canonical text, or undefined when `text` is none: dotted
 * IPv4 with four parts only (not inet_aton's "127.1" or "0x7f.0.0.1"), IPv6 with
 * an optional zone; an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, as a
 * dual-stack socket reports an IPv4 peer) as the IPv4 address it is.
 */
export function canonicalAddress(text: string): string | undefined {
  if (isIP(text) === 0) return undefined;
  return ipaddr.process(text).toString();
}

/** `10.0.0.0/8`, `2001:db8::/32` or one address (a network of one); undefined when `text` is neither. */
export function networkOf(text: string): Network | undefined {
  const slash = text.indexOf("/");
  const address = slash < 0 ? text : text.slice(0, slash);
  if (isIP(address) === 0) return undefined;
  const parsed = ipaddr.parse(address);
  const max = parsed.kind() === "ipv4" ? 32 : 128;
  const rawBits = slash < 0 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(rawBits) || Number(rawBits) > max) return undefined;
  const bits = Number(rawBits);
  // An IPv4-mapped network (::ffff:10.0.0.0/104) is the IPv4 network it maps: addresses are compared as IPv4.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(parsed as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [parsed, bits];
}

/** A network as text, its host bits cleared: `10.0.0.0/8`, `::1/128`. */
export function networkText([address, bits]: Network): string {
  const kind = address.kind() === "ipv4" ? ipaddr.IPv4 : ipaddr.IPv6;
  return `${kind.networkAddressFromCIDR(`${address.toString()}/${bits}`).toString()}/${bits}`;
}

/** Whether `address` (canonical, from canonicalAddress) is in one of `networks`. */
export function inNetworks(address: string, networks: readonly Network[]): boolean {
  if (networks.length === 0 || isIP(address) === 0) return false;
  const parsed = ipaddr.process(address);
  return networks.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits));
}

/** The setting: comma-separated addresses or CIDR networks, as normalised texts; a wrong entry stops the start naming it. */
export function trustedProxiesSetting(env: NodeJS.ProcessEnv, name: string): string[] {
  return list(env[name]).map((entry) => {
    const net = networkOf(entry);
    if (!net) {
      throw new ConfigError(
        `${name} must be comma-separated IP addresses or CIDR networks (10.0.0.0/8, 2001:db8::/32), got ${JSON.stringify(entry.slice(0, 60))}`,
      );
    }
    return networkText(net);
  });
}
