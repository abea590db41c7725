/**
 * Who the client is (edge/pages/kit/forwarded.ts), as a table: forwarding
 * headers from an untrusted peer are ignored whatever they say; behind trusted
 * proxies the client is the right-most untrusted address of X-Forwarded-For;
 * IPv6 and IPv4-mapped addresses are compared and reported canonically;
 * malformed entries end the walk at the last address known good; and
 * X-Forwarded-Proto is the trusted peer's own (right-most) value, http or https only.
 */
import t from "tap";
import { type ForwardedHeaders, forwardedClient, type Peer, proxyTrust } from "../../../../../edge/pages/kit/forwarded.ts";

const trust = proxyTrust(["10.0.0.0/8", "192.0.2.7/32", "::1/128", "fd00::/8"]);
const plain = (address: string | undefined): Peer => ({ address, encrypted: false });

interface Row {
  name: string;
  peer: Peer;
  headers: ForwardedHeaders;
  address: string;
  protocol?: "http" | "https";
}

const rows: Row[] = [
  // An untrusted peer: its headers say nothing.
  { name: "no headers", peer: plain("203.0.113.9"), headers: {}, address: "203.0.113.9" },
  { name: "spoofed XFF from an untrusted peer", peer: plain("203.0.113.9"), headers: { forwardedFor: "198.51.100.1" }, address: "203.0.113.9" },
  {
    name: "spoofed XFF and proto from an untrusted peer",
    peer: plain("203.0.113.9"),
    headers: { forwardedFor: "10.0.0.1, 198.51.100.1", forwardedProto: "https" },
    address: "203.0.113.9",
    protocol: "http",
  },
  {
    name: "untrusted peer over TLS",
    peer: { address: "203.0.113.9", encrypted: true },
    headers: { forwardedProto: "http" },
    address: "203.0.113.9",
    protocol: "https",
  },
  { name: "IPv4-mapped peer, untrusted", peer: plain("::ffff:203.0.113.9"), headers: { forwardedFor: "1.2.3.4" }, address: "203.0.113.9" },
  { name: "no peer address (socket gone)", peer: plain(undefined), headers: { forwardedFor: "1.2.3.4" }, address: "" },
  // A trusted peer.
  {
    name: "one proxy",
    peer: plain("10.0.0.5"),
    headers: { forwardedFor: "198.51.100.1", forwardedProto: "https" },
    address: "198.51.100.1",
    protocol: "https",
  },
  { name: "trusted peer without XFF", peer: plain("10.0.0.5"), headers: {}, address: "10.0.0.5", protocol: "http" },
  { name: "IPv4-mapped trusted peer", peer: plain("::ffff:10.0.0.5"), headers: { forwardedFor: "198.51.100.1" }, address: "198.51.100.1" },
  {
    name: "the client's own spoofed entries left of the real one",
    peer: plain("10.0.0.5"),
    headers: { forwardedFor: "1.1.1.1, 10.9.9.9, 198.51.100.1" },
    address: "198.51.100.1",
  },
  { name: "two proxies of ours", peer: plain("10.0.0.5"), headers: { forwardedFor: "198.51.100.1, 192.0.2.7" }, address: "198.51.100.1" },
  {
    name: "three proxies, a spoof left of the client",
    peer: plain("10.0.0.5"),
    headers: { forwardedFor: "6.6.6.6, 198.51.100.1, 10.1.1.1, 192.0.2.7" },
    address: "198.51.100.1",
  },
  {
    name: "a proxy not ours in the chain is the client",
    peer: plain("10.0.0.5"),
    headers: { forwardedFor: "198.51.100.1, 203.0.113.50" },
    address: "203.0.113.50",
  },
  {
    name: "several XFF header lines, in order",
    peer: plain("10.0.0.5"),
    headers: { forwardedFor: ["6.6.6.6, 198.51.100.1", "192.0.2.7"] },
    address: "198.51.100.1",
  },
  { name: "every hop trusted: the left-most", peer: plain("10.0.0.5"), headers: { forwardedFor: "10.2.2.2, 192.0.2.7" }, address: "10.2.2.2" },
  // IPv6.
  { name: "IPv6 proxy, IPv6 client", peer: plain("::1"), headers: { forwardedFor: "2001:db8::1" }, address: "2001:db8::1" },
  { name: "IPv6 client written long", peer: plain("::1"), headers: { forwardedFor: "2001:0db8:0000:0000:0000:0000:0000:0001" }, address: "2001:db8::1" },
  { name: "IPv6 client in brackets with a port", peer: plain("fd00::2"), headers: { forwardedFor: "[2001:db8::1]:4711" }, address: "2001:db8::1" },
  { name: "IPv4 client with a port", peer: plain("fd00::2"), headers: { forwardedFor: "198.51.100.1:4711" }, address: "198.51.100.1" },
  { name: "IPv4-mapped client", peer: plain("::1"), headers: { forwardedFor: "::ffff:198.51.100.1" }, address: "198.51.100.1" },
  { name: "IPv4-mapped proxy in the chain", peer: plain("::1"), headers: { forwardedFor: "198.51.100.1, ::ffff:10.3.3.3" }, address: "198.51.100.1" },
  { name: "IPv6 peer not trusted", peer: plain("2001:db8::99"), headers: { forwardedFor: "198.51.100.1" }, address: "2001:db8::99" },
  // Malformed values.
  { name: "garbage right of the client: the peer", peer: plain("10.0.0.5"), headers: { forwardedFor: "198.51.100.1, not-an-ip" }, address: "10.0.0.5" },
  { name: "unknown", peer: plain("10.0.0.5"), headers: { forwardedFor: "unknown" }, address: "10.0.0.5" },
  { name: "empty value", peer: plain("10.0.0.5"), headers: { forwardedFor: "" }, address: "10.0.0.5" },
  { name: "empty entry", peer: plain("10.0.0.5"), headers: { forwardedFor: "198.51.100.1, " }, address: "10.0.0.5" },
  { name: "garbage left of the client is never read", peer: plain("10.0.0.5"), headers: { forwardedFor: "<script>, 198.51.100.1" }, address: "198.51.100.1" },
  { name: "garbage after a trusted hop: that hop", peer: plain("10.0.0.5"), headers: { forwardedFor: "x.y.z.w, 10.7.7.7" }, address: "10.7.7.7" },
  { name: "inet_aton shorthand is no address", peer: plain("10.0.0.5"), headers: { forwardedFor: "127.1" }, address: "10.0.0.5" },
  { name: "octet over 255", peer: plain("10.0.0.5"), headers: { forwardedFor: "198.51.100.256" }, address: "10.0.0.5" },
  { name: "a CIDR is no address", peer: plain("10.0.0.5"), headers: { forwardedFor: "198.51.100.0/24" }, address: "10.0.0.5" },
  { name: "RFC 7239 syntax is not read", peer: plain("10.0.0.5"), headers: { forwardedFor: 'for="198.51.100.1"' }, address: "10.0.0.5" },
  // X-Forwarded-Proto from a trusted peer.
  { name: "proto upper case", peer: plain("10.0.0.5"), headers: { forwardedProto: "HTTPS" }, address: "10.0.0.5", protocol: "https" },
  {
    name: "proto: the peer's own, right-most value",
    peer: plain("10.0.0.5"),
    headers: { forwardedProto: "https, http" },
    address: "10.0.0.5",
    protocol: "http",
  },
  { name: "proto over several lines", peer: plain("10.0.0.5"), headers: { forwardedProto: ["http", "https"] }, address: "10.0.0.5", protocol: "https" },
  { name: "proto garbage: the socket's", peer: plain("10.0.0.5"), headers: { forwardedProto: "ftp" }, address: "10.0.0.5", protocol: "http" },
  {
    name: "proto garbage over TLS: the socket's",
    peer: { address: "10.0.0.5", encrypted: true },
    headers: { forwardedProto: "gopher" },
    address: "10.0.0.5",
    protocol: "https",
  },
  {
    name: "proto http from a trusted proxy over TLS",
    peer: { address: "10.0.0.5", encrypted: true },
    headers: { forwardedProto: "http" },
    address: "10.0.0.5",
    protocol: "http",
  },
];

t.test("the client of each request", async (t) => {
  for (const row of rows) {
    const got = forwardedClient(row.peer, row.headers, trust);
    t.equal(got.address, row.address, `${row.name}: address`);
    if (row.protocol) t.equal(got.protocol, row.protocol, `${row.name}: protocol`);
  }
});

t.test("with no proxy trusted (the default), no header is ever believed", async (t) => {
  for (const row of rows) {
    const got = forwardedClient(row.peer, row.headers, proxyTrust([]));
    const own = row.peer.address?.replace(/^::ffff:(?=\d+\.)/, "") ?? "";
    t.equal(got.address, own, row.name);
    t.equal(got.protocol, row.peer.encrypted ? "https" : "http", row.name);
  }
});

t.test("a network that config.ts did not normalise is a programming error", async (t) => {
  t.throws(() => proxyTrust(["proxy.internal"]), /not an address or network: proxy\.internal/);
});
