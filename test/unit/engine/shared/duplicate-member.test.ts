import t from "tap";
import { duplicateMember } from "../../../../engine/shared/duplicate-member.ts";

t.test("finds a top-level member named twice, however it is spelled", async (t) => {
  t.equal(duplicateMember('{"a":1,"b":2,"a":3}'), "a");
  t.equal(duplicateMember('{ "a" : 1 ,\n "\\u0061" : 2 }'), "a", "an escape names the same member");
  t.equal(duplicateMember('{"x":"\\"a\\"","a":1,"a":2}'), "a", "quotes inside strings are skipped");
  t.equal(duplicateMember('{"amount":1,"__proto__":1,"__proto__":2}'), "__proto__");
});

t.test("names in strings or nested values are not members", async (t) => {
  t.equal(duplicateMember('{"a":1,"b":"a","c":"\\\\"}'), undefined, "a value equal to a name");
  t.equal(duplicateMember('{"a":{"a":1,"a":2},"b":[{"a":1},{"a":2}]}'), undefined, "nested objects are another depth");
  t.equal(duplicateMember('{"a":{"x":1},"a":[1]}'), "a", "though the members holding them are counted");
  t.equal(duplicateMember("{}"), undefined);
  t.equal(duplicateMember('{"A":1,"a":2}'), undefined, "names are case-sensitive, as the canonical string is");
});
