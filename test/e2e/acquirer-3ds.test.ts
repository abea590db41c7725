/**
 * 3-D Secure at a real acquirer (issue 30, point 5), over sockets and plain HTTP as a customer's browser follows it:
 * merchants whose accounts are at the acquirer simulator's Checkout.com (/checkout) and Adyen (/adyen/v71)
 * stand-ins, a simulator of this file's own (the engine's spawned one holds no such accounts). A sale with the
 * stand-in's challenge card answers pending_async with Cashier's own challenge page as its redirect_url; that page
 * sends the customer on (303) to the acquirer's page; the acquirer's answer sends the browser back to Cashier's
 * return route (/3ds/{trace_id}/{mac}/return), which asks the acquirer for the verdict and sends the customer on to
 * the merchant's return_url; the sale ends approved when the customer passed, declined when they failed.
 */
import t, { type Test } from "tap";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { dialectMerchants } from "../support/acquirer-sim-dialects.ts";
import { useDialectService } from "../support/dialect-service.ts";
import { SECRET } from "../support/merchants.ts";
import { processSale, replySigned } from "../support/wire.ts";

/** A card the Checkout.com stand-in challenges when 3-D Secure is asked for (Checkout.com's test cards). */
const CKO_CHALLENGE_CARD = "4010061700000021";
/** A 3-D Secure 2 card the Adyen stand-in redirects to a challenge (Adyen's test cards). */
const ADYEN_CHALLENGE_CARD = "4917610000000000";
const RETURN_URL = "https://merchant.example/return";

/** One merchant at each stand-in (`m-cko`, `m-adyen`), its account's url pointing at this file's simulator. */
const { service, acquirer } = useDialectService(t, (simUrl) => dialectMerchants(simUrl, { secret: SECRET }));

/** One GET or form POST as a browser sends it, redirects left to the caller. */
async function browse(url: string, form?: Record<string, string>): Promise<{ status: number; location: string; html: string }> {
  const res = await fetch(url, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    ...(form ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.status, location: res.headers.get("location") ?? "", html: await res.text() };
}

interface Walk {
  traceId: number;
  /** Where the acquirer sent the browser back to, and where Cashier sent it on from there. */
  backAt: string;
  finalStatus: number;
  finalLocation: string;
}

/**
 * A sale of `merchant` with `card` answered pending_async, its customer taken through Cashier's page to the
 * acquirer's, pressing `button` there (pass or fail), and followed back through Cashier to the merchant.
 */
async function challengedSale(t: Test, merchant: string, frontend: string, currency: string, card: string, button: "pass" | "fail"): Promise<Walk> {
  const edge = service().edgeUrl;
  const r = await processSale(edge, { merchant_id: merchant, frontend, currency, card_number: card });
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "pending_async", "the acquirer asks for a challenge");
  t.ok(replySigned(r.body));
  const traceId = r.body.trace_id as number;
  const cashierPage = new RegExp(`^${edge}/3ds/${traceId}/[0-9a-f]+$`);
  t.match(r.body.redirect_url, cashierPage, "the redirect_url is Cashier's own challenge page");

  const atCashier = await browse(r.body.redirect_url);
  t.equal(atCashier.status, 303, "Cashier's page sends the open challenge's customer on");
  t.match(atCashier.location, new RegExp(`^${acquirer().sim.url}/`), "to the acquirer's page");
  const page = await browse(atCashier.location);
  t.equal(page.status, 200);
  t.match(page.html, /3-D Secure challenge/, "the acquirer's challenge page");

  const answered = await browse(atCashier.location, { result: button });
  t.equal(answered.status, 303, "the acquirer sends the browser back");
  t.match(answered.location, new RegExp(`^${r.body.redirect_url}/return\\?`), "to Cashier's return route, with the acquirer's parameters");

  const back = await browse(answered.location);
  return { traceId, backAt: answered.location, finalStatus: back.status, finalLocation: back.location };
}

const statusOf = async (traceId: number) => (await service().client.getTransaction({ traceId })).transaction;

t.test("Checkout.com: the customer who passes the challenge is sent back through Cashier, and the sale is approved", async (t) => {
  const w = await challengedSale(t, "m-cko", "cko-usd", "USD", CKO_CHALLENGE_CARD, "pass");
  t.match(w.backAt, /[?&]cko-session-id=sid_/, "Checkout.com's session id on the return");
  t.equal(w.finalStatus, 303);
  t.equal(w.finalLocation, RETURN_URL, "on to the merchant's return_url");
  const tx = await statusOf(w.traceId);
  t.equal(tx?.status, TransactionStatus.APPROVED);
  t.equal(tx?.paymentProcessor, "cko-main");
});

t.test("Checkout.com: a failed challenge ends the sale declined", async (t) => {
  const w = await challengedSale(t, "m-cko", "cko-usd", "USD", CKO_CHALLENGE_CARD, "fail");
  t.equal(w.finalStatus, 303);
  t.equal(w.finalLocation, RETURN_URL);
  const tx = await statusOf(w.traceId);
  t.equal(tx?.status, TransactionStatus.DECLINED);
  t.equal(tx?.errorCode, 9004, "error_code 9004: the customer failed the 3-D Secure check, as at the simulators' page");
});

t.test("Adyen: the shopper who passes the challenge is sent back with a redirectResult, and the sale is approved", async (t) => {
  const w = await challengedSale(t, "m-adyen", "adyen-eur", "EUR", ADYEN_CHALLENGE_CARD, "pass");
  t.match(w.backAt, /[?&]redirectResult=/, "Adyen's redirectResult on the return");
  t.equal(w.finalStatus, 303);
  t.equal(w.finalLocation, RETURN_URL);
  const tx = await statusOf(w.traceId);
  t.equal(tx?.status, TransactionStatus.APPROVED);
  t.equal(tx?.paymentProcessor, "adyen-eu");
});

t.test("Adyen: a failed challenge ends the sale declined", async (t) => {
  const w = await challengedSale(t, "m-adyen", "adyen-eur", "EUR", ADYEN_CHALLENGE_CARD, "fail");
  t.equal(w.finalStatus, 303);
  t.equal(w.finalLocation, RETURN_URL);
  const tx = await statusOf(w.traceId);
  t.equal(tx?.status, TransactionStatus.DECLINED);
  t.equal(tx?.errorCode, 9004, "error_code 9004: the customer failed the 3-D Secure check, as at the simulators' page");
});

t.test("back from the acquirer a second time, the customer sees the finished page, not the acquirer again", async (t) => {
  const w = await challengedSale(t, "m-cko", "cko-usd", "USD", CKO_CHALLENGE_CARD, "pass");
  const again = await browse(w.backAt);
  t.equal(again.status, 200, "the challenge's page as it stands: finished");
  t.equal(again.location, "", "no redirect, so never back to the acquirer's page");
  t.equal((await statusOf(w.traceId))?.status, TransactionStatus.APPROVED, "still approved");
});
