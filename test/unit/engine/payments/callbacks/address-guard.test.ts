/**
 * The SSRF guard's one rule and its check at save: which addresses are refused
 * (every spelling the URL parser turns into one of them), the guard's words,
 * and what a save does with a name (resolved by a stand-in resolver here: the
 * unit tier makes no DNS query).
 */
import t from "tap";
import { addressRefusedReason, callbackUrlCheck, refusedAddress } from "../../../../../engine/payments/callbacks/address-guard.ts";

const REFUSED_URLS = [
  "http://127.0.0.1:9000/x",
  "http://127.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://10.1.2.3/",
  "http://172.16.0.1/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://169.254.169.254/latest/meta-data",
  "http://0.0.0.0/",
  "http://224.0.0.1/",
  "http://[::1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:8.8.8.8]/",
  "http://[fd00::1]/",
  "http://[fe80::1]/",
];

t.test("loopback, private, link-local, metadata, unspecified, multicast and IPv6 forms of them are refused", async (t) => {
  for (const url of REFUSED_URLS) t.equal(refusedAddress(new URL(url).hostname), true, url);
});

t.test("public unicast addresses are not, and a name is never refused by its spelling", async (t) => {
  for (const host of ["8.8.8.8", "[2001:4860::8888]", "2001:4860::8888", "platform.example", "localhost", "not an address"])
    t.equal(refusedAddress(host), false, host);
});

t.test("a save is refused with the guard's words for an address in the URL", async (t) => {
  const check = callbackUrlCheck({
    allowPrivate: false,
    resolve: async () => {
      t.fail("an address is not resolved");
      return [];
    },
  });
  for (const url of REFUSED_URLS) t.equal(await check(url), addressRefusedReason(new URL(url).hostname), url);
  t.equal(
    await check("http://10.1.2.3/x"),
    "address refused: 10.1.2.3 is or resolves to a loopback, private, link-local or metadata address (CASHIER_CALLBACK_ALLOW_PRIVATE is off)",
  );
  t.equal(await check("https://8.8.8.8/x"), undefined, "a public address is taken");
});

t.test("a name is resolved at save: refused when any of its addresses is refused", async (t) => {
  const names: Record<string, string[]> = {
    "internal.platform.example": ["10.0.0.7"],
    "split.platform.example": ["203.0.113.9", "192.168.0.4"],
    "public.platform.example": ["8.8.4.4", "2001:4860::8844"],
  };
  const asked: string[] = [];
  const check = callbackUrlCheck({
    allowPrivate: false,
    resolve: async (host) => {
      asked.push(host);
      const a = names[host];
      if (!a) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      return a.map((address) => ({ address }));
    },
  });
  t.equal(await check("https://internal.platform.example/api/validation"), addressRefusedReason("internal.platform.example"));
  t.equal(await check("https://split.platform.example/x"), addressRefusedReason("split.platform.example"), "one private address among public ones");
  t.equal(await check("https://public.platform.example/x"), undefined);
  t.equal(await check("https://not-yet.platform.example/x"), undefined, "a name that does not resolve is taken: the guard judges again at each call");
  t.same(asked, ["internal.platform.example", "split.platform.example", "public.platform.example", "not-yet.platform.example"]);
});

t.test("with private addresses allowed nothing is refused or resolved", async (t) => {
  const check = callbackUrlCheck({
    allowPrivate: true,
    resolve: async () => {
      t.fail("nothing resolved");
      return [];
    },
  });
  t.equal(await check("http://127.0.0.1:9/x"), undefined);
  t.equal(await check("http://internal.platform.example/x"), undefined);
});

t.test("a resolver that does not answer does not hold a save: the name is taken", async (t) => {
  const check = callbackUrlCheck({ allowPrivate: false, resolve: () => new Promise(() => {}) });
  t.equal(await check("https://slow.platform.example/x"), undefined);
});
