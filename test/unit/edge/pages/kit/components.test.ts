/**
 * The components wire accessibility by construction: a field's label, hint
 * and error are tied to its input, the error summary is an alert linking to
 * each field, buttons and links carry only what they are given, escaped.
 */
import t from "tap";
import { amountDisplay, button, errorSummary, field, hiddenFields, linkButton } from "../../../../../edge/pages/kit/components.ts";
import { translator } from "../../../../../edge/pages/kit/i18n.ts";

t.test("a field with hint and error: label for, aria-describedby naming both, aria-invalid", async (t) => {
  const out = field({
    name: "card_number",
    label: "Card number",
    hint: "16 digits",
    error: "Check the <number>",
    autocomplete: "cc-number",
    inputmode: "numeric",
    required: true,
  }).value;
  t.match(out, '<label for="card_number">Card number</label>');
  t.match(out, '<p class="hint" id="card_number-hint">16 digits</p>');
  t.match(out, '<p class="error" id="card_number-error">Check the &#60;number&#62;</p>');
  t.match(
    out,
    /<input id="card_number" name="card_number" type="text" autocomplete="cc-number" inputmode="numeric" required aria-required="true" aria-describedby="card_number-hint card_number-error" aria-invalid="true">/,
  );
});

t.test("a plain field has no describedby and is not invalid; its value is escaped", async (t) => {
  const out = field({ name: "amount", label: "Amount", value: '"><script>' }).value;
  t.notMatch(out, "aria-describedby");
  t.notMatch(out, "aria-invalid");
  t.match(out, 'value="&#34;&#62;&#60;script&#62;"');
});

t.test("the error summary: an alert, a counted heading, a link to each field; nothing when there is no error", async (t) => {
  const out = errorSummary(translator("en"), [
    { field: "amount", message: "Enter an amount" },
    { field: "card_number", message: "Check the card number" },
  ]).value;
  t.match(out, 'role="alert"');
  t.match(out, "<h2>There are 2 problems with what you entered</h2>");
  t.match(out, '<li><a href="#amount">Enter an amount</a></li><li><a href="#card_number">Check the card number</a></li>');
  t.equal(errorSummary(translator("en"), []).value, "");
});

t.test("buttons, links, amounts and hidden fields", async (t) => {
  t.equal(button({ label: "Pay <now>", id: "pay" }).value, '<button type="submit" class="button primary" id="pay">Pay &#60;now&#62;</button>');
  t.equal(
    linkButton("Back", "https://shop.example/?a=1&b=2", "back").value,
    '<a id="back" class="button primary" href="https://shop.example/?a=1&#38;b=2">Back</a>',
  );
  for (const bad of ["javascript:alert(1)", "data:text/html,x", "/relative", ""]) t.equal(linkButton("Back", bad).value, "", `no link to ${bad || "nothing"}`);
  t.equal(amountDisplay(translator("de"), 1050n, "EUR", "total").value, '<span class="amount" id="total">10,50 EUR</span>');
  t.equal(
    hiddenFields({ csrf_token: 'a"b', session_token: "s" }).value,
    '<input type="hidden" name="csrf_token" value="a&#34;b"><input type="hidden" name="session_token" value="s">',
  );
});
