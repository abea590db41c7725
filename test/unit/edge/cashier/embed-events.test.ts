/**
 * What the hosted pages carry for CONTRACT 12's events, on fixtures: the
 * seconds a session has left (cashier:expired when they pass), the ended page
 * that a proven parent may frame and that says cashier:expired, a form's
 * errors and a declined card as cashier:error; the CSRF token's proof of the
 * parent a page was framed by; and /cashier.js's integrity hash. The events
 * themselves are driven in Chromium (test/browser/cashier-embed-browser.test.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import t from "tap";
import { TransactionStatus } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { loadEmbedScript } from "../../../../edge/cashier/embed-script.ts";
import { depositPage } from "../../../../edge/cashier/views/deposit.ts";
import { noticePage } from "../../../../edge/cashier/views/notice.ts";
import { secondsLeft } from "../../../../edge/cashier/views/page.ts";
import { resultPage } from "../../../../edge/cashier/views/result.ts";
import { errorSummary } from "../../../../edge/pages/kit/components.ts";
import { createCsrf, csrfKeyFrom } from "../../../../edge/pages/kit/csrf.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";
import { SHOP, TOKEN, depositSession, transaction } from "../../../support/cashier-fixtures.ts";

const c = () => ({ tr: translator("en"), nonce: "bm9uY2U=", tls: false });
const unescaped = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
const attribute = (html: string, name: string) => {
  const m = new RegExp(`${name}="([^"]*)"`).exec(html);
  return m ? unescaped(m[1]) : undefined;
};

t.test("a session's page says how many seconds the session has left; none when the engine gave no end", async (t) => {
  const now = Date.now();
  const session = depositSession({ expireTime: { seconds: BigInt(Math.floor(now / 1000) + 120), nanos: 0 } });
  const left = secondsLeft(session, now);
  t.ok(left !== undefined && left >= 119 && left <= 120, `${left} seconds`);
  t.equal(secondsLeft(depositSession({ expireTime: { seconds: BigInt(Math.floor(now / 1000) - 5), nanos: 0 } }), now), 0, "an ended one: 0, never negative");
  t.equal(secondsLeft(depositSession(), now), undefined);
  const page = depositPage(c(), { session, sessionToken: TOKEN, parent: SHOP }, { csrfToken: "csrf", submissionKey: "key-of-this-rendering-0001" });
  const body = /<body data-parent-origin="https:\/\/shop\.example" data-expires-in="(\d+)">/.exec(page.html);
  t.ok(body && Number(body[1]) <= 120 && Number(body[1]) > 60, `the body says ${body?.[1]} seconds (the page's own clock reads later)`);
});

t.test("the ended page says cashier:expired, and posts it to a proven parent, which alone may frame it", async (t) => {
  const framed = noticePage({ ...c(), frameAncestors: [SHOP] }, "ended", {}, SHOP);
  t.match(framed.html, 'data-parent-origin="https://shop.example"');
  t.match(framed.html, "data-cashier-expired");
  t.match(framed.headers["Content-Security-Policy"] ?? framed.headers["content-security-policy"], `frame-ancestors ${SHOP}`);
  const alone = noticePage(c(), "ended");
  t.notMatch(alone.html, "data-parent-origin", "no parent: no events");
  t.match(alone.headers["Content-Security-Policy"] ?? alone.headers["content-security-policy"], "frame-ancestors 'none'");
  t.notMatch(noticePage(c(), "notFound").html, "data-cashier-expired", "only the ended page says so");
});

t.test("a form's errors are one cashier:error: invalid_fields, the customer's sentences, the fields", async (t) => {
  const html = errorSummary(translator("en"), [
    { field: "card_number", message: "Enter a valid card number." },
    { field: "cvv", message: "Enter the security code." },
  ]).value;
  t.same(JSON.parse(attribute(html, "data-cashier-error")!), {
    code: "invalid_fields",
    message: "Enter a valid card number. Enter the security code.",
    fields: ["card_number", "cvv"],
  });
  t.equal(errorSummary(translator("en"), []).value, "", "no errors, no event");
});

t.test("a declined deposit carries cashier:error (declined, the reason shown, error_code); an approval none", async (t) => {
  const frame = { session: depositSession(), sessionToken: TOKEN, parent: SHOP };
  const declined = resultPage(c(), frame, transaction({ status: TransactionStatus.DECLINED, errorCode: 51 })).html;
  t.same(JSON.parse(attribute(declined, "data-cashier-error")!), { code: "declined", message: "The card has insufficient funds.", error_code: 51 });
  t.match(declined, "The card has insufficient funds.", "the same words on the page");
  t.equal(attribute(resultPage(c(), frame, transaction()).html, "data-cashier-error"), undefined);
});

t.test("a CSRF token made with the page's parent proves that parent, for that session only", async (t) => {
  const csrf = createCsrf(csrfKeyFrom("edge-token-of-this-deployment"));
  const token = csrf.token("session-A", SHOP);
  t.ok(csrf.verify("session-A", token), "still a valid CSRF token");
  t.equal(csrf.provenParent("session-A", token, SHOP), SHOP);
  t.equal(csrf.provenParent("session-A", token, "https://evil.example"), undefined, "another parent");
  t.equal(csrf.provenParent("session-B", token, SHOP), undefined, "another session");
  t.equal(csrf.provenParent("session-A", csrf.token("session-A"), SHOP), undefined, "a page sent without a parent proves none");
  t.equal(csrf.provenParent("session-A", `${token.split(".")[0]}.${"A".repeat(32)}`, SHOP), undefined, "a forged proof");
  t.equal(createCsrf(csrfKeyFrom("another")).provenParent("session-A", token, SHOP), undefined, "another key");
  t.notOk(csrf.verify("session-A", `${token}.x`), "one proof only");
  t.notOk(csrf.verify("session-A", `${token.split(".")[0]}.`), "an empty proof");
});

t.test("/cashier.js: the integrity hash is the SHA-384 of the bytes served", async (t) => {
  const script = loadEmbedScript();
  const file = readFileSync(new URL("../../../../edge/cashier/assets/cashier-embed.js", import.meta.url));
  t.same(script.body, file);
  t.equal(script.integrity, `sha384-${createHash("sha384").update(file).digest("base64")}`);
});
