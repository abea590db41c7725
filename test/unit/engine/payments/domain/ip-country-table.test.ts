/**
 * The IP country table (CASHIER_IP_COUNTRY_FILE), pure: a `network,country`
 * CSV as GeoLite2's or DB-IP's country CSV cut to two columns becomes sorted
 * ranges looked up by binary search, IPv4 and IPv6 alike: an address at each
 * edge of a network and just outside it, an IPv4-mapped IPv6 address as its
 * IPv4 one, an address in no network or not an address unknown; header,
 * comments, blank lines and CRLF taken; each bad row answered with its line
 * and field (two fields, a network, host bits, a country, an overlap, none).
 */
import t from "tap";
import { parseIpCountryCsv } from "../../../../../engine/payments/domain/ip-country-table.ts";

const CSV = [
  "network,country",
  "# cut from GeoLite2-Country-Blocks-IPv4.csv and -IPv6.csv",
  "81.2.69.0/24,GB",
  "1.0.0.0/24,AU",
  "",
  "2001:db8::/32,DE",
  "2a02:ff00::/24,it",
  "100.0.0.0/8,US\r",
  "::ffff:192.0.2.0/120,FR",
  "",
].join("\n");

function table() {
  const r = parseIpCountryCsv(CSV);
  if (!r.ok) throw new Error(JSON.stringify(r.fault));
  return r.table;
}

t.test("addresses at each edge of a network and just outside it", async (t) => {
  const tb = table();
  t.equal(tb.size, 6);
  const cases: [string, string | undefined][] = [
    ["81.2.69.0", "GB"],
    ["81.2.69.255", "GB"],
    ["81.2.70.0", undefined],
    ["81.2.68.255", undefined],
    ["1.0.0.7", "AU"],
    ["100.0.0.0", "US"],
    ["100.255.255.255", "US"],
    ["99.255.255.255", undefined],
    ["101.0.0.0", undefined],
    ["192.0.2.1", "FR"],
    ["::ffff:192.0.2.200", "FR"],
    ["::ffff:1.0.0.1", "AU"],
    ["2001:db8::", "DE"],
    ["2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "DE"],
    ["2001:db9::", undefined],
    ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", undefined],
    ["2a02:ffab::1", "IT"],
    [" 81.2.69.10 ", "GB"],
    ["", undefined],
    ["not-an-ip", undefined],
    ["999.1.1.1", undefined],
  ];
  for (const [ip, want] of cases) t.equal(tb.countryOf(ip), want, ip || "(empty)");
});

t.test("a large table answers by binary search", async (t) => {
  // 65,536 networks of 256 addresses each, in reverse order, alternating countries.
  const rows: string[] = [];
  for (let i = 65_535; i >= 0; i--) rows.push(`10.${i >> 8}.${i & 255}.0/24,${i % 2 === 0 ? "NL" : "BE"}`);
  const r = parseIpCountryCsv(rows.join("\n"));
  t.ok(r.ok);
  if (!r.ok) return;
  t.equal(r.table.size, 65_536);
  t.equal(r.table.countryOf("10.0.0.1"), "NL");
  t.equal(r.table.countryOf("10.0.1.255"), "BE");
  t.equal(r.table.countryOf("10.255.255.255"), "BE");
  t.equal(r.table.countryOf("11.0.0.0"), undefined);
  t.equal(r.table.countryOf("9.255.255.255"), undefined);
});

t.test("a bad row is answered with its line and field", async (t) => {
  const cases: [string, string, { line: number; field: string; description: RegExp }][] = [
    ["three fields", "network,country\n1.0.0.0/24,AU,Oceania", { line: 2, field: "row", description: /two fields.*found 3/ }],
    ["one field", "1.0.0.0/24", { line: 1, field: "row", description: /found 1/ }],
    ["no prefix length", "1.0.0.0,AU", { line: 1, field: "network", description: /"1\.0\.0\.0" is not a CIDR network/ }],
    ["prefix too long", "\n\n1.0.0.0/33,AU", { line: 3, field: "network", description: /not a CIDR network/ }],
    ["host bits", "2001:db8::1/32,DE", { line: 1, field: "network", description: /host bits set: its network is 2001:db8::\/32/ }],
    ["a name for a country", "1.0.0.0/24,Australia", { line: 1, field: "country", description: /"Australia" is not an ISO 3166-1 alpha-2 code/ }],
    ["no country", "1.0.0.0/24,", { line: 1, field: "country", description: /"" is not/ }],
    [
      "an overlap, found whatever the order",
      "1.0.0.0/16,AU\n2001:db8::/32,DE\n1.0.3.0/24,NZ",
      { line: 3, field: "network", description: /1\.0\.3\.0\/24 overlaps 1\.0\.0\.0\/16 of line 1/ },
    ],
    [
      "an overlap through the IPv4-mapped form",
      "192.0.2.0/24,FR\n::ffff:192.0.2.128/121,BE",
      { line: 2, field: "network", description: /overlaps 192\.0\.2\.0\/24 of line 1/ },
    ],
    ["nothing but a header", "network,country\n", { line: 2, field: "row", description: /holds no network/ }],
  ];
  for (const [name, csv, want] of cases) {
    const r = parseIpCountryCsv(csv);
    t.notOk(r.ok, name);
    if (!r.ok) t.match(r.fault, want, name);
  }
});
