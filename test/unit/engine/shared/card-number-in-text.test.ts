/**
 * What counts as a card number inside an identifier: 13 to 19 digits of a
 * card brand passing Luhn, together or in groups split by single spaces,
 * dashes or dots as card numbers are written (in fours, 4-6-5, 4-6-4; and
 * percent-encoded in a URL), alone or among other text;
 * not a platform's numeric id that no brand begins like, not a Luhn failure,
 * not a longer run of digits.
 */
import t from "tap";
import { cardNumberIn, cardNumberInUrl } from "../../../../engine/shared/card-number-in-text.ts";

t.test("found, however it is written", async (t) => {
  for (const [text, card] of [
    ["4111111111111111", "4111111111111111"],
    ["4111 1111 1111 1111", "4111111111111111"],
    ["4111-1111-1111-1111", "4111111111111111"],
    ["4111.1111.1111.1111@example.com", "4111111111111111"],
    ["cust-5555555555554444", "5555555555554444"],
    ["order 3782 822463 10005 for Jane", "378282246310005"],
    ["2030-12-4111111111111111", "4111111111111111"],
    ["4000000000000002x", "4000000000000002"],
    ["6011 0009 9013 9424", "6011000990139424"],
    ["3056 930902 5904", "30569309025904"],
    ["3782 8224 6310 005", "378282246310005"],
    ["4111-1111-1111-1111-003", "4111111111111111"],
  ]) {
    t.equal(cardNumberIn(text), card, text);
  }
});

t.test("not found: ids, dates and numbers that are no card's", async (t) => {
  for (const text of [
    "",
    "cust-42",
    "1541815603606036480", // a snowflake id: no brand begins with 1
    "4111111111111112", // fails Luhn
    "8000000000000007", // passes Luhn, no brand
    "98765432109876543210", // 20 digits together
    "41111111111111110000", // a card's digits glued to more: a longer reference
    "2030-12-31",
    "1795000000",
    "4111 1111 1111", // 12 digits
    // A process id and a time in milliseconds: joined they would be an 18-digit Visa passing Luhn.
    "ord-44911-1764403200005-1",
    "4111-11111111-1111", // no card prints its digits 4-8-4
  ]) {
    t.equal(cardNumberIn(text), undefined, text);
  }
});

t.test("in a URL, as written or percent-encoded", async (t) => {
  t.equal(cardNumberInUrl("https://shop.example/back?c=4111%201111%201111%201111"), "4111111111111111");
  t.equal(cardNumberInUrl("https://shop.example/back?c=4111+1111+1111+1111"), "4111111111111111");
  t.equal(cardNumberInUrl("https://shop.example/back/4111111111111111"), "4111111111111111");
  t.equal(cardNumberInUrl("https://shop.example/back?ref=100%"), undefined, "a stray % is no error");
  t.equal(cardNumberInUrl("https://shop.example/orders/1541815603606036480?t=1795000000"), undefined);
});
