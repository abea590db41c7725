/**
 * Signatures of CONTRACT section 2: the canonical string and HMAC-SHA384 in
 * lowercase hex, checked against the contract's test vector, and verification
 * that accepts either hex case and answers "no" (never throws) to anything else.
 */
import t from "tap";
import { canonicalString } from "../../../../engine/shared/canonical.ts";
import { fingerprint, hmacHex, verifyHmac } from "../../../../engine/shared/hmac.ts";

const SECRET = "demo-secret-change-me";
const VECTOR_CANONICAL =
  "amount=1050&card_exp=12/2030&card_number=4111111111111111&country=GB&currency=USD&cvv=123&email=jane@example.com&first_name=Jane&frontend=demo-usd&last_name=Doe&merchant_id=m-demo&order_id=ord-1001&pin=cust-42&return_url=https://merchant.example/return&timestamp=1795000000&transaction_type=sale&version=1.0&zip=SW1A1AA";
const VECTOR_SIGNATURE = "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635";

/** The vector's body as a platform would send it, in no particular order. */
const VECTOR_BODY = {
  version: "1.0",
  transaction_type: "sale",
  merchant_id: "m-demo",
  order_id: "ord-1001",
  frontend: "demo-usd",
  amount: 1050,
  currency: "USD",
  card_number: "4111111111111111",
  card_exp: "12/2030",
  cvv: "123",
  pin: "cust-42",
  email: "jane@example.com",
  first_name: "Jane",
  last_name: "Doe",
  country: "GB",
  state: null,
  zip: "SW1A1AA",
  return_url: "https://merchant.example/return",
  timestamp: 1795000000,
  signature: VECTOR_SIGNATURE,
};

t.test("the CONTRACT section 2 test vector", async (t) => {
  const canonical = canonicalString(VECTOR_BODY);
  t.equal(canonical, VECTOR_CANONICAL, "canonical string, state: null dropped, signature left out");
  t.notMatch(canonical, /state=/);
  t.equal(hmacHex(SECRET, canonical), VECTOR_SIGNATURE, "signature");
  t.equal(hmacHex(Buffer.from(SECRET, "utf8"), canonical), VECTOR_SIGNATURE, "secret as bytes");
  t.ok(verifyHmac(SECRET, canonical, VECTOR_SIGNATURE), "verifies");
  t.ok(verifyHmac(SECRET, canonical, VECTOR_SIGNATURE.toUpperCase()), "verifies in upper-case hex");
  const mixed = [...VECTOR_SIGNATURE].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("");
  t.ok(verifyHmac(SECRET, canonical, mixed), "verifies in mixed-case hex");
});

t.test("hmacHex: 96 lowercase hex characters", async (t) => {
  for (const msg of ["", "a", VECTOR_CANONICAL, "é&=€😀"]) {
    t.match(hmacHex(SECRET, msg), /^[0-9a-f]{96}$/, JSON.stringify(msg).slice(0, 30));
  }
  t.not(hmacHex(SECRET, "a"), hmacHex("other-secret", "a"), "the key matters");
  // UTF-8 of the message, as the contract says.
  t.equal(hmacHex(SECRET, "é"), hmacHex(SECRET, Buffer.from("é", "utf8").toString("utf8")));
});

t.test("verifyHmac refuses without throwing", async (t) => {
  const rows: [name: string, sig: unknown][] = [
    ["empty", ""],
    ["one character short", VECTOR_SIGNATURE.slice(0, 95)],
    ["one character long", `${VECTOR_SIGNATURE}0`],
    ["two characters long", `${VECTOR_SIGNATURE}00`],
    ["half length", VECTOR_SIGNATURE.slice(0, 48)],
    ["last digit changed", VECTOR_SIGNATURE.slice(0, 95) + (VECTOR_SIGNATURE.endsWith("0") ? "1" : "0")],
    ["non-hex of the right length", "g".repeat(96)],
    ["a non-hex character at the end", `${VECTOR_SIGNATURE.slice(0, 95)}z`],
    ["leading space", ` ${VECTOR_SIGNATURE.slice(1)}`],
    ["trailing newline", `${VECTOR_SIGNATURE}\n`],
    ["surrounded by spaces", ` ${VECTOR_SIGNATURE} `],
    ["base64 of the MAC", Buffer.from(VECTOR_SIGNATURE, "hex").toString("base64")],
    ["sha256-sized", "ab".repeat(32)],
    ["0x prefix", `0x${VECTOR_SIGNATURE.slice(2)}`],
    ["all zeros", "0".repeat(96)],
    ["multi-byte characters", "é".repeat(96)],
  ];
  for (const [name, sig] of rows) {
    let got: boolean | undefined;
    t.doesNotThrow(() => void (got = verifyHmac(SECRET, VECTOR_CANONICAL, sig as string)), `${name}: no throw`);
    t.equal(got, false, `${name}: refused`);
  }
  t.equal(verifyHmac("wrong-secret", VECTOR_CANONICAL, VECTOR_SIGNATURE), false, "wrong secret");
  t.equal(verifyHmac(SECRET, VECTOR_CANONICAL.replace("1050", "1051"), VECTOR_SIGNATURE), false, "changed amount");
  t.equal(verifyHmac(SECRET, `${VECTOR_CANONICAL}&x=1`, VECTOR_SIGNATURE), false, "an added member");
});

t.test("canonicalString", async (t) => {
  const rows: [name: string, body: Record<string, string | number | boolean | null | undefined>, want: string][] = [
    ["empty object", {}, ""],
    ["only a signature", { signature: "abc" }, ""],
    ["nulls and undefined dropped", { a: "1", b: null, c: undefined, d: "4" }, "a=1&d=4"],
    ["empty string kept", { a: "", b: "x" }, "a=&b=x"],
    ["numbers as String(n)", { a: 0, b: -5, c: 1.5, d: 1e21, e: 1795000000 }, "a=0&b=-5&c=1.5&d=1e+21&e=1795000000"],
    ["booleans", { t: true, f: false }, "f=false&t=true"],
    ["no escaping of & = % + spaces", { q: "a&b=c", r: "50% off + tax", s: "é ü" }, "q=a&b=c&r=50% off + tax&s=é ü"],
    ["upper case sorts before lower case", { b: "1", B: "2", a: "3", A: "4" }, "A=4&B=2&a=3&b=1"],
    ["underscore between upper and lower", { ab: "1", a_b: "2", aB: "3", Ab: "4" }, "Ab=4&aB=3&a_b=2&ab=1"],
    ["a prefix sorts first", { amount: 1, am: 2, amount_x: 3 }, "am=2&amount=1&amount_x=3"],
    ["digits before letters", { a1: "x", a: "y", "1": "z" }, "1=z&a=y&a1=x"],
    // Code-unit order: a surrogate pair (U+1F600 -> D83D DE00) sorts before U+FF5A.
    ["code-unit (not code-point) order", { "\uFF5A": "fw", "\u{1F600}": "smile", "\u00E9": "e" }, "\u00E9=e&\u{1F600}=smile&\uFF5A=fw"],
    ["signature member never included, even when not a string", { a: "1", signature: null }, "a=1"],
  ];
  for (const [name, body, want] of rows) t.equal(canonicalString(body), want, name);
});

t.test("fingerprint: keyed, deterministic, hex SHA-256", async (t) => {
  const k1 = Buffer.alloc(32, 1);
  const k2 = Buffer.alloc(32, 2);
  t.match(fingerprint(k1, "4111111111111111"), /^[0-9a-f]{64}$/);
  t.equal(fingerprint(k1, "4111111111111111"), fingerprint(k1, "4111111111111111"));
  t.not(fingerprint(k1, "4111111111111111"), fingerprint(k2, "4111111111111111"));
  t.not(fingerprint(k1, "4111111111111111"), fingerprint(k1, "5555555555554444"));
  t.notMatch(fingerprint(k1, "4111111111111111"), /4111111111111111/);
});
