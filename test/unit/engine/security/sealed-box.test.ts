/**
 * AES-256-GCM for data at rest (CONTRACT section 8): what is sealed opens only
 * with the same key and the same associated data, and any change is detected.
 */
import t from "tap";
import { randomBytes } from "node:crypto";
import { open, seal } from "../../../../engine/security/sealed-box.ts";

const KEY = randomBytes(32);
const OTHER = randomBytes(32);

const b64 = (s: string) => Buffer.from(s, "base64url");
const u64 = (b: Buffer) => b.toString("base64url");

t.test("round trip", async (t) => {
  const rows = ["4111111111111111", "", "demo-secret-change-me", "é€😀 unicode", "x".repeat(10_000)];
  for (const plain of rows) {
    t.equal(open(KEY, seal(KEY, plain)), plain, `no AAD: ${plain.slice(0, 20)}`);
    t.equal(open(KEY, seal(KEY, plain, "order:42"), "order:42"), plain, `with AAD: ${plain.slice(0, 20)}`);
  }
});

t.test("the sealed form: v1.<iv>.<tag>.<ciphertext>, random IV, no plaintext", async (t) => {
  const a = seal(KEY, "4111111111111111", "order:1");
  const b = seal(KEY, "4111111111111111", "order:1");
  t.not(a, b, "two seals of the same value differ");
  const parts = a.split(".");
  t.equal(parts.length, 4);
  t.equal(parts[0], "v1");
  t.equal(b64(parts[1]).length, 12, "96-bit IV");
  t.equal(b64(parts[2]).length, 16, "128-bit tag");
  t.equal(b64(parts[3]).length, 16, "ciphertext as long as the plaintext");
  t.notMatch(a, /4111/);
  for (const p of parts.slice(1)) t.match(p, /^[A-Za-z0-9_-]*$/, "base64url");
});

t.test("tampering, wrong key and wrong AAD are refused", async (t) => {
  const sealed = seal(KEY, "4111111111111111", "order:7");
  const [v, iv, tag, body] = sealed.split(".");
  const flip = (s: string, i = 0) => {
    const buf = b64(s);
    buf[i] ^= 1;
    return u64(buf);
  };
  const rows: [name: string, key: Buffer, text: string, aad: string][] = [
    ["flipped ciphertext bit", KEY, [v, iv, tag, flip(body)].join("."), "order:7"],
    ["flipped last ciphertext bit", KEY, [v, iv, tag, flip(body, 15)].join("."), "order:7"],
    ["flipped tag bit", KEY, [v, iv, flip(tag), body].join("."), "order:7"],
    ["flipped IV bit", KEY, [v, flip(iv), tag, body].join("."), "order:7"],
    ["truncated ciphertext", KEY, [v, iv, tag, u64(b64(body).subarray(0, 15))].join("."), "order:7"],
    ["extended ciphertext", KEY, [v, iv, tag, u64(Buffer.concat([b64(body), Buffer.from([0])]))].join("."), "order:7"],
    ["empty ciphertext", KEY, [v, iv, tag, ""].join("."), "order:7"],
    ["wrong key", OTHER, sealed, "order:7"],
    ["AAD of another order", KEY, sealed, "order:8"],
    ["AAD missing", KEY, sealed, ""],
    ["unknown version", KEY, ["v2", iv, tag, body].join("."), "order:7"],
    ["missing parts", KEY, [v, iv, tag].join("."), "order:7"],
    ["empty tag", KEY, [v, iv, "", body].join("."), "order:7"],
    ["not a sealed value", KEY, "4111111111111111", "order:7"],
    ["empty string", KEY, "", "order:7"],
  ];
  for (const [name, key, text, aad] of rows) t.throws(() => open(key, text, aad), `${name}: refused`);
});

t.test("a sealed value with no AAD does not open under an AAD", async (t) => {
  t.throws(() => open(KEY, seal(KEY, "secret"), "order:1"));
  t.throws(() => open(KEY, seal(KEY, "secret", "order:1")));
});

t.test("a truncated authentication tag is refused", async (t) => {
  // GCM's forgery bound depends on the tag length: a 4-byte tag is a 1 in 2^32 guess.
  const sealed = seal(KEY, "4111111111111111", "order:7");
  const [v, iv, tag, body] = sealed.split(".");
  for (const n of [4, 8, 12, 15]) {
    const short = [v, iv, u64(b64(tag).subarray(0, n)), body].join(".");
    t.throws(() => open(KEY, short, "order:7"), `${n}-byte tag refused`);
  }
});
