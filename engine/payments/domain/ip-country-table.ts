/**
 * The IP country table of the country mismatch rule (docs/operations.md, IP
 * countries): an operator's CSV of `network,country` rows (a CIDR network and
 * an ISO 3166-1 alpha-2 code: GeoLite2's or DB-IP's country CSV cut to two
 * columns) parsed into sorted, non-overlapping address ranges, one list for
 * IPv4 and one for IPv6, and looked up by binary search. Pure: the file is
 * read at start by app/ip-country-file.ts; a bad row is answered with its line
 * and field, so that the start can name them. An address in no range has no
 * known country (undefined), and the rule never refuses on an unknown one.
 */
import ipaddr from "ipaddr.js";

/** A row's fault: its line (1-based), the field at fault (`network`, `country`, or `row` for the row's shape) and why. */
export interface IpCountryFault {
  line: number;
  field: "network" | "country" | "row";
  description: string;
}

/** One family's ranges, sorted by start, none overlapping: `ends[i]` is the last address of the range at `starts[i]`. */
interface Ranges<N extends number | bigint> {
  starts: N[];
  ends: N[];
  countries: string[];
}

interface Row<N> {
  start: N;
  end: N;
  country: string;
  line: number;
  network: string;
}

const COUNTRY = /^[A-Za-z]{2}$/;
const HEADER = /^network\s*,\s*country$/i;

/** An IPv4 address as an unsigned 32-bit number. */
function v4Number(a: ipaddr.IPv4): number {
  return a.octets.reduce((n, o) => n * 256 + o, 0);
}

/** An IPv6 address as a 128-bit bigint. */
function v6Number(a: ipaddr.IPv6): bigint {
  return a.parts.reduce((n, p) => (n << 16n) | BigInt(p), 0n);
}

/** The index of the range holding `n`, or -1: the last start at or below `n`, if its end reaches `n`. */
function search<N extends number | bigint>(r: Ranges<N>, n: N): number {
  let lo = 0;
  let hi = r.starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((r.starts[mid] as N) <= n) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && n <= (r.ends[found] as N) ? found : -1;
}

/** The countries of the operator's networks, looked up by address. */
export class IpCountryTable {
  readonly #v4: Ranges<number>;
  readonly #v6: Ranges<bigint>;

  constructor(v4: Ranges<number>, v6: Ranges<bigint>) {
    this.#v4 = v4;
    this.#v6 = v6;
  }

  /** How many networks the table holds (the start logs it). */
  get size(): number {
    return this.#v4.starts.length + this.#v6.starts.length;
  }

  /**
   * The country (upper case) of the network holding `ip`, or undefined: not an address, or in no network of the
   * table. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is looked up as its IPv4 address.
   */
  countryOf(ip: string): string | undefined {
    const text = ip.trim();
    if (!ipaddr.isValid(text)) return undefined;
    const a = ipaddr.process(text);
    if (a.kind() === "ipv4") {
      const i = search(this.#v4, v4Number(a as ipaddr.IPv4));
      return i >= 0 ? this.#v4.countries[i] : undefined;
    }
    const i = search(this.#v6, v6Number(a as ipaddr.IPv6));
    return i >= 0 ? this.#v6.countries[i] : undefined;
  }
}

type Parsed = { kind: "v4"; row: Row<number> } | { kind: "v6"; row: Row<bigint> } | { fault: IpCountryFault };

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const BITS = /^\d{1,3}$/;

/** A network's address and prefix length, or undefined: a hand-rolled IPv4 parse (a country file has about half a million rows), ipaddr.js's for IPv6. */
function parseNetwork(network: string): { v4: number; bits: number } | { v6: bigint; bits: number } | undefined {
  const slash = network.indexOf("/");
  const address = network.slice(0, slash);
  const bitsText = network.slice(slash + 1);
  if (slash < 0 || !BITS.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  const m = V4.exec(address);
  if (m) {
    const octets = m.slice(1, 5).map(Number);
    if (bits > 32 || octets.some((o) => o > 255)) return undefined;
    return { v4: octets.reduce((n, o) => n * 256 + o, 0), bits };
  }
  if (bits > 128) return undefined;
  let a: ipaddr.IPv6;
  try {
    a = ipaddr.IPv6.parse(address);
  } catch {
    return undefined;
  }
  // An IPv4-mapped IPv6 network is its IPv4 network, as the lookup maps such an address.
  if (a.isIPv4MappedAddress() && bits >= 96) return { v4: v4Number(a.toIPv4Address()), bits: bits - 96 };
  return { v6: v6Number(a), bits };
}

function parseRow(text: string, line: number): Parsed {
  const fields = text.split(",");
  if (fields.length !== 2)
    return { fault: { line, field: "row", description: `must be two fields, network and country, separated by one comma (found ${fields.length})` } };
  const network = (fields[0] ?? "").trim();
  const country = (fields[1] ?? "").trim();
  const parsed = parseNetwork(network);
  if (!parsed) return { fault: { line, field: "network", description: `${JSON.stringify(network)} is not a CIDR network (192.0.2.0/24, 2001:db8::/32)` } };
  if (!COUNTRY.test(country))
    return { fault: { line, field: "country", description: `${JSON.stringify(country)} is not an ISO 3166-1 alpha-2 code (DE, US)` } };
  const code = country.toUpperCase();
  if ("v4" in parsed) {
    const size = 2 ** (32 - parsed.bits);
    const first = parsed.v4 - (parsed.v4 % size);
    if (first !== parsed.v4) return hostBits(network, line, `${ipaddr.fromByteArray(bytes(first, 4)).toString()}/${parsed.bits}`);
    return { kind: "v4", row: { start: first, end: first + size - 1, country: code, line, network } };
  }
  const size = 1n << BigInt(128 - parsed.bits);
  const first = parsed.v6 - (parsed.v6 % size);
  if (first !== parsed.v6) return hostBits(network, line, `${ipaddr.fromByteArray(bytes(first, 16)).toString()}/${parsed.bits}`);
  return { kind: "v6", row: { start: first, end: first + size - 1n, country: code, line, network } };
}

/** A number's `n` big-endian bytes. */
function bytes(value: number | bigint, n: number): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.unshift(Number(v & 255n));
    v >>= 8n;
  }
  return out;
}

function hostBits(network: string, line: number, first: string): Parsed {
  return { fault: { line, field: "network", description: `${network} has host bits set: its network is ${first}` } };
}

/** The family's rows sorted, or the first overlap: the later row's line, naming the earlier's network and line. */
function ranges<N extends number | bigint>(rows: Row<N>[]): Ranges<N> | IpCountryFault {
  rows.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.line - b.line));
  const r: Ranges<N> = { starts: [], ends: [], countries: [] };
  let last: Row<N> | undefined;
  for (const row of rows) {
    if (last && row.start <= last.end) {
      const [earlier, later] = last.line < row.line ? [last, row] : [row, last];
      return { line: later.line, field: "network", description: `${later.network} overlaps ${earlier.network} of line ${earlier.line}` };
    }
    r.starts.push(row.start);
    r.ends.push(row.end);
    r.countries.push(row.country);
    last = row;
  }
  return r;
}

/**
 * The table of a `network,country` CSV, or its first fault. Blank lines and lines starting with `#` are skipped,
 * and a first row `network,country` is a header. A file with no network is a fault: it would know no country.
 */
export function parseIpCountryCsv(text: string): { ok: true; table: IpCountryTable } | { ok: false; fault: IpCountryFault } {
  const v4: Row<number>[] = [];
  const v6: Row<bigint>[] = [];
  let seenRow = false;
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (!seenRow && HEADER.test(trimmed)) {
      seenRow = true;
      continue;
    }
    seenRow = true;
    const parsed = parseRow(trimmed, i + 1);
    if ("fault" in parsed) return { ok: false, fault: parsed.fault };
    if (parsed.kind === "v4") v4.push(parsed.row);
    else v6.push(parsed.row);
  }
  if (v4.length + v6.length === 0) return { ok: false, fault: { line: lines.length, field: "row", description: "the file holds no network" } };
  const r4 = ranges(v4);
  if ("line" in r4) return { ok: false, fault: r4 };
  const r6 = ranges(v6);
  if ("line" in r6) return { ok: false, fault: r6 };
  return { ok: true, table: new IpCountryTable(r4, r6) };
}
