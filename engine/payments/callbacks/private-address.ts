/**
 * Whether a callback address names, by itself, a host the SSRF guard will
 * refuse (request-filtering-agent, at connect time, when
 * CASHIER_CALLBACK_ALLOW_PRIVATE is off): `localhost`, or an IP literal that
 * is not a public unicast address (loopback, private, link-local, metadata,
 * carrier-grade NAT, unspecified, IPv4-mapped forms of those). A name that
 * resolves there is found only when it is called; this is the operator's early
 * warning for what the configuration already says, not the guard.
 */
import ipaddr from "ipaddr.js";

export function namesPrivateHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(host)) return false;
  let addr = ipaddr.parse(host);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() !== "unicast";
}
