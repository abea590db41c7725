/**
 * A decline as the customer reads it: the platform's words only for its own Validation refusal (9002), escaped, under
 * our line saying whose they are; a withdrawal's reason and next step by the code the engine knows; cashier:error's
 * message the same text.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { TransactionSchema } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { declinedMessage, declinedText, withdrawalDeclineReason } from "../../../../edge/cashier/views/decline-reason.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";

const en = translator("en");

t.test("the platform's words, escaped, only for a Validation refusal", async (t) => {
  const x = create(TransactionSchema, { errorCode: 9002, platformMessage: 'Verify your ID <img src=x onerror="alert(1)">' });
  const html = declinedMessage(en, x, true).value;
  t.match(html, '<p id="result-message">The merchant did not accept this payment and says:</p>');
  t.match(html, "Verify your ID &#60;img src=x onerror=&#34;alert(1)&#34;&#62;", "as text");
  t.notMatch(html, "<img");
  t.equal(declinedText(en, x, true), 'Verify your ID <img src=x onerror="alert(1)">', "cashier:error's message (the page escapes the attribute)");
  const other = create(TransactionSchema, { errorCode: 51, platformMessage: "not the platform's" });
  t.notMatch(declinedMessage(en, other, true).value, "platform-message", "a processor decline never shows such words");
  t.equal(declinedText(en, create(TransactionSchema, { errorCode: 9002 }), true), "The merchant did not confirm this payment.");
});

t.test("a declined withdrawal says why and what to do next", async (t) => {
  const rows: [number, RegExp][] = [
    [9002, /Contact the merchant's support.*verify your identity/],
    [9003, /could not confirm.*in a few minutes/],
    [9007, /merchant declined.*what to do next/],
    [9001, /payment service.*another card/],
    [91, /payment service/],
    [5, /bank did not accept.*choose another card/],
  ];
  for (const [code, want] of rows) t.match(withdrawalDeclineReason(en, code), want, String(code));
  const words = declinedMessage(en, create(TransactionSchema, { errorCode: 9002, platformMessage: "KYC pending." }), false).value;
  t.match(words, "The merchant did not accept this withdrawal and says:");
  t.match(words, '<p id="result-next">No money was sent. If you need help, contact the merchant&#39;s support.</p>');
});
