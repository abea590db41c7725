/**
 * CASHIER_MASTER_KEY parsing (64 hex characters or base64 of 32 bytes) and the
 * keys derived from it: one per purpose, all different, stable for one master.
 */
import t from "tap";
import { randomBytes } from "node:crypto";
import { deriveKeys, MasterKeyError, parseMasterKey } from "../../../../engine/security/keys.ts";

const RAW = Buffer.from("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "hex");

t.test("parseMasterKey accepts hex and base64 of 32 bytes", async (t) => {
  const rows: [name: string, text: string][] = [
    ["lower-case hex", RAW.toString("hex")],
    ["upper-case hex", RAW.toString("hex").toUpperCase()],
    ["hex with a trailing newline (the dev key file)", `${RAW.toString("hex")}\n`],
    ["hex with surrounding spaces", `  ${RAW.toString("hex")}  `],
    ["base64", RAW.toString("base64")],
    ["base64url", RAW.toString("base64url")],
    ["base64 with a trailing newline", `${RAW.toString("base64")}\n`],
  ];
  for (const [name, text] of rows) t.same(parseMasterKey(text), RAW, name);
  const random = randomBytes(32);
  t.same(parseMasterKey(random.toString("base64")), random, "random key in base64");
  t.same(parseMasterKey(random.toString("hex")), random, "random key in hex");
});

t.test("parseMasterKey refuses anything else with a MasterKeyError", async (t) => {
  const rows: [name: string, text: string][] = [
    ["empty", ""],
    ["whitespace", "   "],
    ["63 hex characters", RAW.toString("hex").slice(0, 63)],
    ["65 hex characters", `${RAW.toString("hex")}0`],
    ["62 hex characters (31 bytes)", RAW.toString("hex").slice(0, 62)],
    ["base64 of 31 bytes", RAW.subarray(0, 31).toString("base64")],
    ["base64 of 33 bytes", Buffer.concat([RAW, Buffer.from([1])]).toString("base64")],
    ["base64 of 16 bytes", RAW.subarray(0, 16).toString("base64")],
    ["a passphrase", "correct horse battery staple"],
    ["hex with a non-hex character", `${RAW.toString("hex").slice(0, 63)}g`],
  ];
  for (const [name, text] of rows) {
    let thrown: unknown;
    try {
      parseMasterKey(text);
    } catch (err) {
      thrown = err;
    }
    t.ok(thrown instanceof MasterKeyError, `${name}: MasterKeyError`);
  }
  try {
    parseMasterKey("secret-material-here");
  } catch (err) {
    t.notMatch((err as Error).message, /secret-material-here/, "the error never echoes the key");
  }
});

t.test("deriveKeys: distinct 32-byte keys per purpose, stable per master", async (t) => {
  const k = deriveKeys(RAW);
  const named = { encryption: k.encryption, cardFingerprint: k.cardFingerprint, orderFingerprint: k.orderFingerprint, tokenHash: k.tokenHash };
  const hexes = Object.values(named).map((b) => b.export().toString("hex"));
  for (const [name, key] of Object.entries(named)) {
    t.equal(key.symmetricKeySize, 32, `${name} is 32 bytes`);
    t.notSame(key.export(), RAW, `${name} is not the master key`);
  }
  t.equal(new Set(hexes).size, hexes.length, "all purposes have different keys");
  t.match(k.keyId, /^[0-9a-f]{8}$/, "short key id");
  t.notOk(RAW.toString("hex").includes(k.keyId), "key id is not a slice of the key");

  const again = deriveKeys(Buffer.from(RAW));
  t.ok(
    again.encryption.equals(k.encryption) &&
      again.cardFingerprint.equals(k.cardFingerprint) &&
      again.orderFingerprint.equals(k.orderFingerprint) &&
      again.tokenHash.equals(k.tokenHash),
    "same master, same keys",
  );
  t.equal(again.keyId, k.keyId);

  const other = deriveKeys(randomBytes(32));
  t.notOk(other.encryption.equals(k.encryption), "another master, another encryption key");
  t.notOk(other.cardFingerprint.equals(k.cardFingerprint));
  t.not(other.keyId, k.keyId);
});
