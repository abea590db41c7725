/**
 * The Cashier's views on fixtures: what each page says and offers in each
 * state, its security headers, and that nothing is left unescaped or
 * untranslated. The same pages are driven in Chromium by the e2e tests.
 */
import t from "tap";
import { SessionIntent } from "../../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { TransactionStatus, TransactionType } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { depositPage } from "../../../../edge/cashier/views/deposit.ts";
import { noticePage } from "../../../../edge/cashier/views/notice.ts";
import { resultPage } from "../../../../edge/cashier/views/result.ts";
import { withdrawalPage } from "../../../../edge/cashier/views/withdrawal.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";
import { SHOP, TOKEN, depositSession, transaction } from "../../../support/cashier-fixtures.ts";

const c = (locale: "en" | "de" | "ar" = "en") => ({ tr: translator(locale), nonce: "bm9uY2U=", tls: false });
const frame = (session = depositSession(), parent: string | undefined = SHOP) => ({ session, sessionToken: TOKEN, parent });

t.test(
  "deposit: presets and a free field named amount with the limits, the saved card first, a new card with the autocomplete tokens, one submit",
  async (t) => {
    const page = depositPage(c(), frame(), { csrfToken: "csrf", submissionKey: "key-of-this-rendering-0001" });
    t.equal(page.http, 200);
    const h = page.html;
    t.match(h, 'name="preset" id="preset-1000" value="1000"');
    t.match(h, ">25.00 USD</label>");
    t.match(h, '<input id="amount" name="amount"');
    t.match(h, "From 5.00 USD to 5000.00 USD");
    t.ok(h.indexOf('value="card-a" checked') < h.indexOf('id="card_number"'), "the saved card comes before the new card form");
    t.match(h, "Visa ending in 1111, expires 12/2030");
    for (const token of ["cc-number", "cc-exp", "cc-csc", "cc-name"]) t.match(h, `autocomplete="${token}"`);
    const savedCvv = /<input[^>]*name="saved_card_cvv"[^>]*>/.exec(h)?.[0] ?? "";
    t.match(savedCvv, 'autocomplete="cc-csc"', "the saved card's security code is a card input too (cc-csc)");
    t.match(h, 'name="save_card"');
    const depositForm = /<form[^>]*data-card-form>[\s\S]*?<\/form>/.exec(h)![0];
    t.equal(depositForm.match(/type="submit"/g)?.length, 1, "one submit button in the deposit form");
    t.match(h, `action="/cashier/s/${TOKEN}/cards/delete?parent=`, "each saved card has its own form to remove it");
    t.match(h, "Remove Visa ending in 1111, expires 12/2030");
    t.match(h, `name="session_token" value="${TOKEN}"`);
    t.match(h, 'name="csrf_token" value="csrf"');
    t.match(depositForm, 'name="submission_key" value="key-of-this-rendering-0001"', "the deposit form carries its rendering's one-time key");
    t.match(h, `action="/cashier/s/${TOKEN}/deposit?parent=https%3A%2F%2Fshop.example"`);
    t.match(h, `data-parent-origin="${SHOP}"`);
    t.equal(page.headers["Cache-Control"], "no-store");
    t.equal(page.headers["Referrer-Policy"], "no-referrer");
    t.match(page.headers["Content-Security-Policy"], `frame-ancestors ${SHOP};`);
    t.notOk(page.headers["Strict-Transport-Security"], "no HSTS over plain http");
    t.ok(depositPage({ ...c(), tls: true }, frame(), { csrfToken: "x", submissionKey: "k" }).headers["Strict-Transport-Security"], "HSTS over TLS");
  },
);

t.test("deposit: a fixed amount is shown, not asked; no save box when the frontend keeps no cards; no saved cards: no choice", async (t) => {
  const session = depositSession({ amount: { amountMinor: 1234567n, currency: "EUR" }, currency: "EUR", savedCards: [] });
  session.frontendSettings!.saveCards = false;
  const h = depositPage(c("de"), frame(session), { csrfToken: "x", submissionKey: "k" }).html;
  t.match(h, '<dd id="fixed-amount"><span class="amount">12.345,67 EUR</span></dd>');
  t.notMatch(h, 'name="amount"');
  t.notMatch(h, 'name="preset"');
  t.notMatch(h, 'name="save_card"');
  t.notMatch(h, 'name="source"');
  t.match(h, /<button[^>]*id="pay">[0-9.,]+ [A-Z]{3} bezahlen<\/button>/, "the button names the fixed amount");
});

t.test("deposit with errors: 400, the summary, each error tied to its field, what was typed kept but never a card number", async (t) => {
  const page = depositPage(c(), frame(), {
    csrfToken: "x",
    submissionKey: "k",
    values: { amount: "3", holder: 'Jane "<b>"', source: "new" },
    errors: [
      { field: "amount", message: "Enter an amount from 5.00 USD to 5000.00 USD" },
      { field: "card_number", message: "Enter the card number as it is on the card" },
    ],
  });
  t.equal(page.http, 400);
  t.match(page.html, 'role="alert"');
  t.match(page.html, '<a href="#card_number">Enter the card number');
  t.match(page.html, /id="card_number"[^>]*aria-describedby="card_number-hint card_number-error" aria-invalid="true"/);
  t.match(page.html, 'value="Jane &#34;&#60;b&#62;&#34;"', "escaped");
  t.match(page.html, 'id="card-new" value="new" checked');
});

t.test("Arabic is right to left with the same structure", async (t) => {
  const h = depositPage(c("ar"), frame(), { csrfToken: "x", submissionKey: "k" }).html;
  t.match(h, '<html lang="ar" dir="rtl">');
  t.match(h, /<button[^>]*id="pay">ادفع<\/button>/, "no amount chosen yet: just Pay");
});

t.test(
  "result pages: approved with a receipt and Continue to the merchant; declined with the customer's reason and Try another card; pending follows",
  async (t) => {
    const approved = resultPage(c(), frame(), transaction()).html;
    t.match(approved, "<h1>Payment approved</h1>");
    t.match(approved, 'id="receipt-order"><bdi>cs-abc</bdi>');
    t.match(approved, 'id="receipt-card"><bdi dir="ltr">Visa 411111******1111</bdi>');
    t.match(approved, `href="${SHOP}/back" target="_top" data-cashier-close`);
    t.match(
      approved,
      'data-cashier-result="{&#34;intent&#34;:&#34;deposit&#34;,&#34;trace_id&#34;:1234,&#34;order_id&#34;:&#34;cs-abc&#34;,&#34;transaction_status&#34;:&#34;approved&#34;}"',
    );
    t.notMatch(approved, "http-equiv");

    const declined = resultPage(c(), frame(), transaction({ status: TransactionStatus.DECLINED, errorCode: 51, errorDetails: "internal processor text" })).html;
    t.match(declined, "<h1>Payment declined</h1>");
    t.match(declined, "The card has insufficient funds.");
    t.notMatch(declined, "internal processor text", "the processor's own words are not shown");
    t.match(declined, `<a id="try-again" class="button primary" href="/cashier/s/${TOKEN}/deposit?parent=`);

    const pending = resultPage(c(), frame(), transaction({ status: TransactionStatus.PENDING })).html;
    t.match(pending, '<noscript><meta http-equiv="refresh" content="2"></noscript>');
    t.match(pending, `data-follow="/cashier/s/${TOKEN}/result/1234/status"`);
    t.match(pending, 'role="status"');
    t.notMatch(pending, 'id="challenge"', "no check to pass");

    const challenged = resultPage(
      c(),
      frame(),
      transaction({ status: TransactionStatus.PENDING_ASYNC, redirectUrl: "http://127.0.0.1:8080/challenge/1234/mac" }),
    ).html;
    t.match(
      challenged,
      '<a id="challenge" class="button primary" href="http://127.0.0.1:8080/challenge/1234/mac?parent=https%3A%2F%2Fshop.example">Confirm with your bank</a>',
      "an open 3-D Secure check is one link away, carrying the framing parent on",
    );
    t.match(challenged, 'data-follow="/cashier/s/');

    const requested = resultPage(c("de"), frame(), transaction({ transactionType: TransactionType.PAYOUT, status: TransactionStatus.REQUESTED })).html;
    t.match(requested, "<h1>Auszahlung beantragt</h1>");
    t.notMatch(requested, "http-equiv", "a withdrawal waiting for the merchant is not polled");
  },
);

t.test("withdrawal: the balance caps the limits, withdrawable cards only, pending withdrawals with a cancel button only when allowed", async (t) => {
  const session = depositSession({
    intent: SessionIntent.WITHDRAWAL,
    balance: { amountMinor: 20000n, currency: "USD" },
    savedCards: [
      { cardId: "card-a", card: { maskedNumber: "411111******1111", brand: "VISA", expiry: "12/2030" }, withdrawable: true },
      { cardId: "card-b", card: { maskedNumber: "555555******4444", brand: "MC", expiry: "12/2030" }, withdrawable: false },
    ],
    pendingWithdrawals: [transaction({ traceId: 77, transactionType: TransactionType.PAYOUT, status: TransactionStatus.REQUESTED })],
  });
  let h = withdrawalPage(c(), frame(session), { csrfToken: "x" }).html;
  t.match(h, '<dd id="balance"><span class="amount">200.00 USD</span></dd>');
  t.match(h, "From 10.00 USD to 200.00 USD");
  t.match(h, "ending in 1111");
  t.notMatch(h, "ending in 4444", "a card that fails the closed loop is not offered");
  t.notMatch(h, 'name="cvv"', "no security code for a withdrawal");
  t.match(h, "1 withdrawal is pending.");
  t.notMatch(h, "cancel-77", "no cancel button by default");
  session.frontendSettings!.playerCancelWithdrawal = true;
  h = withdrawalPage(c(), frame(session), { csrfToken: "x" }).html;
  t.match(h, 'id="cancel-77"');
  t.match(h, "Cancel the withdrawal of 25.00 USD");
  t.equal(h.match(/type="submit"/g)?.length, 2, "one submit in the withdrawal form, one in the cancel form");
});

t.test("withdrawal: a balance of none or below the smallest withdrawal says so instead of a form no amount can pass", async (t) => {
  const pending = [transaction({ traceId: 78, transactionType: TransactionType.PAYOUT, status: TransactionStatus.REQUESTED })];
  const below = depositSession({ intent: SessionIntent.WITHDRAWAL, balance: { amountMinor: 500n, currency: "USD" }, pendingWithdrawals: pending });
  below.frontendSettings!.playerCancelWithdrawal = true;
  const page = withdrawalPage(c(), frame(below), { csrfToken: "x" });
  t.equal(page.http, 200);
  t.match(page.html, '<dd id="balance"><span class="amount">5.00 USD</span></dd>', "the balance is shown");
  t.match(page.html, '<p id="nothing-to-withdraw">Your available balance is below the smallest withdrawal, 10.00 USD.</p>');
  t.notMatch(page.html, 'name="amount"', "no amount to fill in");
  t.notMatch(page.html, 'id="withdraw"', "no withdrawal button");
  t.match(page.html, 'id="cancel-78"', "the pending withdrawal can still be cancelled");
  const none = depositSession({ intent: SessionIntent.WITHDRAWAL, balance: { amountMinor: 0n, currency: "USD" } });
  none.frontendSettings!.withdrawalMinMinor = 0n;
  t.match(withdrawalPage(c("de"), frame(none), { csrfToken: "x" }).html, "Es ist kein Betrag zur Auszahlung verfügbar.");
  const enough = depositSession({ intent: SessionIntent.WITHDRAWAL, balance: { amountMinor: 1000n, currency: "USD" } });
  t.match(withdrawalPage(c(), frame(enough), { csrfToken: "x" }).html, 'name="amount"', "the smallest withdrawal itself can be asked for");
});

t.test("notices say only what happened, framed by the session's allowed origins or by none", async (t) => {
  const page = noticePage(c(), "autologin");
  t.equal(page.http, 410);
  t.match(page.html, "This link cannot be used");
  t.notMatch(page.html, "<form");
  t.match(page.headers["Content-Security-Policy"], "frame-ancestors 'none'", "a link of no known session: no frame");
  t.equal(page.headers["X-Frame-Options"], "DENY");
  const framed = noticePage({ ...c(), frameAncestors: ["https://shop.example"] }, "notFound");
  t.match(framed.headers["Content-Security-Policy"], "frame-ancestors https://shop.example;", "a known session's notice: its frontend's origins");
  t.equal(noticePage(c(), "tooMany", { seconds: 30 }).headers["Retry-After"], "30");
  t.match(noticePage(c("ar"), "tooMany", { seconds: 2 }).html, "انتظر ثانيتين");
  const taken = noticePage(c(), "taken");
  t.equal(taken.http, 409, "a withdrawal whose order_id the platform used for a payout of its own: said so, not 'Page not found'");
  t.match(taken.html, "This withdrawal cannot be requested here");
});
