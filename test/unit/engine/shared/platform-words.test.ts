/**
 * The platform's words as a customer may read them: one line of plain text
 * without control or bidirectional characters, at most 200 characters cut at a
 * word, and nothing at all when they hold a card number (whole or masked); and
 * only a Validation refusal's own description counts as the platform's words.
 */
import t from "tap";
import { PLATFORM_WORDS_MAX, platformWords } from "../../../../engine/shared/platform-words.ts";
import { platformMessageOf, refusedWithoutWords } from "../../../../engine/payments/domain/platform-refusal.ts";

t.test("plain words pass unchanged", async (t) => {
  const words = "Daily deposit limit reached (responsible gambling). Try again tomorrow.";
  t.equal(platformWords(words), words);
  t.equal(platformWords("<b>Verify</b> your identity & try again"), "<b>Verify</b> your identity & try again", "markup stays text: the page escapes it");
});

t.test("control, bidirectional and line characters become spaces, runs of space one", async (t) => {
  t.equal(platformWords("Limit\u0000 reached\r\n\tTry\u2028later"), "Limit reached Try later");
  t.equal(platformWords("abc\u202Egpj.exe"), "abc gpj.exe", "a right-to-left override cannot reorder the text");
  t.equal(platformWords(" \u200B \u0007 "), "", "nothing visible is nothing");
});

t.test("bounded at a word, with an ellipsis", async (t) => {
  const long = "Your account is under review. ".repeat(12);
  const out = platformWords(long);
  t.ok([...out].length <= PLATFORM_WORDS_MAX, `${[...out].length} characters`);
  t.ok(out.endsWith("review.…") || out.endsWith("under…") || /\S…$/.test(out));
  t.notOk(/ …$/.test(out), "no space before the ellipsis");
  const word = "x".repeat(500);
  t.equal([...platformWords(word)].length, PLATFORM_WORDS_MAX, "one long word is cut at the bound");
});

t.test("a card number, whole, grouped or masked, hides the words", async (t) => {
  for (const text of [
    "Card 4111111111111111 is blocked",
    "Card 4111 1111 1111 1111 is blocked",
    "Card 411111******1111 is blocked",
    "Card 4111 11** **** 1111 is blocked",
  ])
    t.equal(platformWords(text), "", text);
  t.equal(platformWords("Limit 5000 EUR per 30 days, reference 1234567"), "Limit 5000 EUR per 30 days, reference 1234567", "other numbers stay");
});

t.test("only a Validation refusal's own description is the platform's words", async (t) => {
  t.equal(platformMessageOf({ errorCode: 9002, errorDetails: "Verify your identity first." }), "Verify your identity first.");
  t.equal(platformMessageOf({ errorCode: 9002, errorDetails: refusedWithoutWords(3) }), "", "the engine's words when it gave none");
  t.equal(platformMessageOf({ errorCode: 9002, errorDetails: refusedWithoutWords(-7) }), "");
  t.equal(platformMessageOf({ errorCode: 9002, errorDetails: null }), "");
  t.equal(platformMessageOf({ errorCode: 51, errorDetails: "51 Insufficient funds" }), "", "a processor's text is never shown");
  t.equal(platformMessageOf({ errorCode: 9003, errorDetails: "Validation unavailable: HTTP 500" }), "");
});
