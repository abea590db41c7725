/**
 * The SSRF guard of CONTRACT section 6: while CASHIER_CALLBACK_ALLOW_PRIVATE is
 * off, no callback reaches an address that is not public unicast (loopback,
 * private, link-local, the metadata address 169.254.169.254, carrier-grade NAT,
 * unspecified, multicast, reserved, and IPv6 forms of those such as IPv4-mapped
 * ones). One rule, asked in two places, so that what a save accepts is what a
 * call would try: where the call is made (http-sender.ts: an address written in
 * the URL before anything is sent, and each address DNS gives, inside the
 * connection's own lookup, so that a name rebound after the check still meets
 * it), and where an address is saved (AdminService, the console, the merchants
 * file at start: callbackUrlCheck).
 */
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import net from "node:net";
import ipaddr from "ipaddr.js";

/** The error code of a connection the guard refused (http-sender.ts tells it from a network failure by it). */
export const ADDRESS_REFUSED = "ERR_CALLBACK_ADDRESS_REFUSED";

/** Whether the guard refuses `address`, an IP address (IPv6 with or without brackets); a name is never refused by its spelling. */
export function refusedAddress(address: string): boolean {
  const ip = address.replace(/^\[(.*)\]$/, "$1");
  // net.isIP takes only the standard spellings, as the sockets do; a URL's host is written so by the URL parser.
  if (net.isIP(ip) === 0) return false;
  return ipaddr.parse(ip).range() !== "unicast";
}

/**
 * What the guard says of a refused host (a URL's hostname, as written): the words a Validation declined for it
 * carries, the delivery record keeps, and a save refused for it names beside its field.
 */
export function addressRefusedReason(host: string): string {
  return `address refused: ${host} is or resolves to a loopback, private, link-local or metadata address (CASHIER_CALLBACK_ALLOW_PRIVATE is off)`;
}

function refusal(host: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(addressRefusedReason(host));
  err.code = ADDRESS_REFUSED;
  return err;
}

/**
 * A socket's lookup that resolves as Node would (every address, in the resolver's order) and refuses the name when
 * any of its addresses is refused: the connection is made only to an address this lookup returned, so nothing lies
 * between the check and the connect.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }), "", 0);
    if (addresses.some((a) => refusedAddress(a.address))) return callback(refusal(hostname), "", 0);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** A callback URL's problem when saved, or undefined: what a save refuses, naming the field, with the guard's words. */
export type CallbackUrlCheck = (url: string) => Promise<string | undefined>;

/** How long a save waits for DNS: a resolver that does not answer is no reason to refuse (the guard still stands at call time). */
const SAVE_LOOKUP_MS = 2000;

type Resolve = (host: string) => Promise<readonly { address: string }[]>;
const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true });

/**
 * The check at save of a callback URL the engine will call (platform_url, validation_url, update_payout_url), by the
 * guard's own rule: with private addresses allowed, nothing; an address written in the URL, refused as the call
 * would refuse it; a name, resolved now, refused when any address it gives is refused (as the call's lookup does).
 * A name that does not resolve, or not within 2 s, is taken: the platform's name may not be published yet, and the
 * guard judges again at every call. The URL's form (http(s), no password) is the field rules' (spec-fields.ts).
 */
export function callbackUrlCheck(opts: { allowPrivate: boolean; resolve?: Resolve }): CallbackUrlCheck {
  const resolve = opts.resolve ?? systemResolve;
  return async (url) => {
    if (opts.allowPrivate) return undefined;
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return undefined;
    }
    if (refusedAddress(host)) return addressRefusedReason(host);
    if (net.isIP(host.replace(/^\[(.*)\]$/, "$1")) !== 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((r) => {
      timer = setTimeout(() => r(undefined), SAVE_LOOKUP_MS);
    });
    try {
      const addresses = await Promise.race([resolve(host).catch(() => undefined), late]);
      if (addresses?.some((a) => refusedAddress(a.address))) return addressRefusedReason(host);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}
