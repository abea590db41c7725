/**
 * The words and values a hostile or careless caller sends, as fast-check
 * arbitraries for the bad-input property tests: the names of
 * Object.prototype's members (which a plain object table "finds"), text the
 * service half knows, and arbitrary text of every kind.
 */
import fc from "fast-check";

/** Names every plain object answers to through its prototype. */
export const PROTOTYPE_WORDS = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "__lookupSetter__",
  "prototype",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
] as const;

/** The issue's five: each once as transaction_type answered HTTP 500. */
export const ISSUE_WORDS = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"] as const;

/**
 * Text the service recognises somewhere (a merchant, a frontend, a currency,
 * a card), so generated requests get past the first checks. "m-test" is left
 * out on purpose: the admin RPCs may rotate or change what they name, and the
 * edge properties sign as m-test.
 */
const KNOWN_TEXT = [
  "",
  " ",
  "m-other",
  "other-usd",
  "m-manual",
  "sale",
  "payout",
  "refund",
  "USD",
  "EUR",
  "JPY",
  "BHD",
  "GB",
  "US",
  "CA",
  "1.0",
  "4111111111111111",
  "4000000000003220",
  "123",
  "12/2030",
  "https://merchant.example/return",
  "jane@example.com",
  "sim-a",
  "sim-b",
  "auto",
  "manual",
  "CAPYJ",
  "*",
  "site_id",
  "processors",
  "base_currency",
  "currencies",
  "result",
  "approve",
  "fail",
];

/** Text shaped like things with rules: tokens, dates, numbers, escapes, lone surrogates, control characters. */
const ODD_TEXT = [
  "\u0000",
  "\n",
  "\ud800",
  "\udfff",
  "\ufeff",
  "%",
  "%zz",
  "&",
  "=",
  "a=b&c=d",
  "null",
  "NaN",
  "-0",
  "1e400",
  "0x10",
  "9".repeat(40),
  "01/01/1900",
  "1900-02-30",
  "::1",
  "javascript:alert(1)",
  "http://",
  "x".repeat(300),
  Buffer.from('{"v":1,"t":"__proto__"}').toString("base64url"),
  Buffer.from('{"v":1,"m":"constructor"}').toString("base64url"),
  Buffer.from('{"v":1,"t":1e300}').toString("base64url"),
  Buffer.from('{"__proto__":{"v":1},"t":5}').toString("base64url"),
  Buffer.from("null").toString("base64url"),
];

/** Any text a caller might put in a string field. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...KNOWN_TEXT) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }) },
);

/** A member name: the seed's own, the prototype's, or anything. */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_WORDS),
  fc.constantFrom("merchant_id", "transaction_type", "amount", "currency", "signature", "timestamp", "phone", "state", "version"),
  fc.string({ maxLength: 20 }),
);

/**
 * JSON number text, including what JSON.parse turns into Infinity, -0 or
 * an unsafe integer.
 */
export const jsonNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom("0", "-0", "1e400", "-1e400", "9007199254740993", "1.5", "1050", "2e1", "12345678901234567890"),
);

/** The text of a JSON scalar: a hostile string, any number, true, false or null. */
export const jsonScalarText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileText.map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: jsonNumberText },
  { weight: 1, arbitrary: fc.constantFrom("true", "false", "null") },
);

/** The text of any JSON value, prototype words among the strings and as the names of nested members. */
export const jsonValueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 7, arbitrary: jsonScalarText },
  { weight: 1, arbitrary: fc.dictionary(hostileName, hostileText, { maxKeys: 3 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', "[]", '["sale"]', "{}") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
);

/** A member's value as a platform sends it: nearly always a scalar, now and then an object or array (which the seed forbids). */
export const jsonMemberText: fc.Arbitrary<string> = fc.oneof({ weight: 9, arbitrary: jsonScalarText }, { weight: 1, arbitrary: jsonValueText });

/** A JSON object's text from its members in order (a repeated name included, as JSON allows). */
export const objectText = (members: [string, string][]): string => `{${members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(",")}}`;
