/**
 * The Adyen stand-in's HTTP API under /adyen/v71, on Adyen's Checkout API
 * v71 paths, so that an `adyen` account whose url is
 * http://<simulator>/adyen/v71 speaks to it as to checkout-test.adyen.com:
 *
 *   POST /adyen/v71/payments                          Authorised, Refused, Error, Received, or RedirectShopper
 *   POST /adyen/v71/payments/details                  the redirectResult -> Authorised or Refused
 *   POST /adyen/v71/payments/{pspReference}/refunds   201 received; the outcome by notification
 *   GET|POST /adyen/3ds/{page}                        the 3-D Secure challenge page (the shopper's browser)
 *
 * `X-API-Key` picks the account, whose merchant account the body must name.
 * `Idempotency-Key` replays the first answer (and is echoed back); a second
 * request while the first is being decided is refused (422, 704), as Adyen
 * documents. Faults (test mode) apply to POST /payments by idempotency key
 * or card number.
 */
import type { IncomingMessage } from "node:http";
import type { AccountBook, AdyenAccount } from "../accounts.ts";
import { challengeAnswer, challengeChoice, challengePage, withQuery } from "../challenge-page.ts";
import type { Dialect } from "../dialect.ts";
import type { FaultSwitch } from "../faults.ts";
import { type Answer, baseUrl, header, parseJson, readRaw } from "../http.ts";
import { answerOnce, type Decided, type IdempotencyBook } from "../idempotency.ts";
import type { KeyLock } from "../key-lock.ts";
import type { Ledger } from "../ledger.ts";
import type { AdyenBook, AdyenEntry, AdyenPayment } from "./book.ts";
import { completeChallenge, takePayment, takeRefund } from "./decide.ts";
import { adyenNotifications } from "./notifications.ts";
import { readDetailsRequest, readPaymentRequest, readRefundRequest } from "./requests.ts";
import { detailsResponse, paymentResponse, refundResponse, serviceError } from "./views.ts";

const MAX_BODY = 64 * 1024;

export interface AdyenDeps {
  ledger: Ledger;
  book: AdyenBook;
  idempotency: IdempotencyBook;
  accounts: AccountBook<AdyenAccount>;
  faults: FaultSwitch;
  locks: KeyLock;
  now: () => number;
}

const UNAUTHORIZED = serviceError(401, "000", "HTTP Status Response - Unauthorized", "security");
const WRONG_MERCHANT = serviceError(403, "901", "Invalid Merchant Account", "security");

export function adyenDialect(deps: AdyenDeps): Dialect {
  const { ledger, book, accounts, locks, now } = deps;

  const once = (scope: string, key: string | undefined, body: unknown, run: () => Decided, resource?: string) =>
    answerOnce({
      ledger,
      book: deps.idempotency,
      locks,
      scope,
      key,
      body,
      run,
      resource,
      busy: () => ({ ...serviceError(422, "704", "request already processed or in progress", "validation"), headers: { "transient-error": "true" } }),
    });

  async function pay(
    req: IncomingMessage,
    body: unknown,
    account: AdyenAccount,
    scope: string,
    key: string | undefined,
    site: string,
  ): Promise<Answer | undefined> {
    const read = readPaymentRequest(body);
    if (!read.ok) return read.answer;
    if (read.value.merchantAccount !== account.merchant_account) return WRONG_MERCHANT;
    const fault = deps.faults.take(key ?? "", read.value.card.number);
    if (fault?.kind === "5xx") return serviceError(503, "000", "Service Unavailable (simulated)", "internal");
    const answer = await once(`adyen/${scope}/payments`, key, body, () => {
      const { p, shown, events } = takePayment(scope, read.value, now());
      const challengeUrl = p.redirect ? `${site}/adyen/3ds/${p.redirect.page}` : undefined;
      return {
        answer: { http: 200, body: paymentResponse(shown, challengeUrl) },
        entries: [{ t: "adyen.payment", p } satisfies AdyenEntry, ...adyenNotifications(account, p, events, now())],
      };
    });
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return undefined;
    }
    if (fault?.kind === "timeout") await new Promise((r) => setTimeout(r, fault.delayMs).unref());
    return answer;
  }

  function details(body: unknown, scope: string): Answer {
    const read = readDetailsRequest(body);
    if (!read.ok) return read.answer;
    const p = book.byRedirectResult(scope, read.value.redirectResult);
    if (!p) return serviceError(422, "14_002", "Invalid redirectResult", "validation");
    return { http: 200, body: detailsResponse(p) };
  }

  function refund(body: unknown, account: AdyenAccount, scope: string, psp: string, key: string | undefined): Promise<Answer> {
    const read = readRefundRequest(body);
    if (!read.ok) return Promise.resolve(read.answer);
    if (read.value.merchantAccount !== account.merchant_account) return Promise.resolve(WRONG_MERCHANT);
    const run = (): Decided => {
      const p = book.find(scope, psp);
      if (!p) return { answer: serviceError(422, "167", "Original pspReference required for this operation", "validation"), entries: [] };
      const { refund: r, events } = takeRefund(p, read.value, now());
      const after = { ...p, refunds: [...p.refunds, r] };
      return {
        answer: { http: 201, body: refundResponse(p, r) },
        entries: [{ t: "adyen.refund", scope, psp, refund: r } satisfies AdyenEntry, ...adyenNotifications(account, after, events, now())],
      };
    };
    return once(`adyen/${scope}/refunds/${psp}`, key, body, run, `adyen-pay/${scope}/${psp}`);
  }

  /** The shopper's page: shown, then answered once; the browser goes back to the returnUrl with a redirectResult. */
  async function challenge(req: IncomingMessage, page: string): Promise<Answer> {
    const found = book.byPage(page);
    if (!found?.redirect) return challengeAnswer("<!doctype html><title>Not found</title><p>No such 3-D Secure session.</p>", 404);
    const view = (p: AdyenPayment) => ({ acquirer: "Adyen", amountMinor: p.value, currency: p.currency, last4: p.last4, result: p.redirect?.answer });
    if (req.method === "GET") return challengeAnswer(challengePage(view(found)));
    const choice = challengeChoice((await readRaw(req, 1024)).toString("utf8"));
    if (!choice) return challengeAnswer(challengePage(view(found)), 400);
    const p = await locks.run(`adyen-pay/${found.scope}/${found.psp}`, async () => {
      const done = completeChallenge(found, choice === "passed");
      if (done) {
        const account = accounts.byScope(found.scope);
        const events = account ? adyenNotifications(account, { ...found, ...done.set }, done.events, now()) : [];
        await ledger.append({ t: "adyen.update", scope: found.scope, psp: found.psp, set: done.set } satisfies AdyenEntry, ...events);
      }
      return found;
    });
    const redirectResult = p.redirect?.redirectResult;
    if (!redirectResult) return challengeAnswer(challengePage(view(p)));
    return { http: 303, headers: { location: withQuery(p.returnUrl, { redirectResult }), "cache-control": "no-store" } };
  }

  async function route(req: IncomingMessage, url: URL): Promise<Answer | undefined> {
    const page = /^\/adyen\/3ds\/([0-9a-f]{32})$/.exec(url.pathname);
    if (page && (req.method === "GET" || req.method === "POST")) return challenge(req, page[1]);
    if (!url.pathname.startsWith("/adyen/v71/")) return serviceError(404, "000", "Not Found", "validation");
    const path = url.pathname.slice("/adyen/v71".length);
    const found = accounts.find(header(req, "x-api-key"));
    if (!found) return UNAUTHORIZED;
    if (req.method !== "POST") return serviceError(405, "000", "Method Not Allowed", "validation");
    const key = header(req, "idempotency-key");
    const echo = (a: Answer | undefined): Answer | undefined => a && (key === undefined ? a : { ...a, headers: { ...a.headers, "idempotency-key": key } });
    const body = parseJson(await readRaw(req, MAX_BODY));
    if (path === "/payments") return echo(await pay(req, body, found.account, found.scope, key, baseUrl(req)));
    if (path === "/payments/details") return echo(details(body, found.scope));
    const m = /^\/payments\/([A-Z0-9]{16})\/refunds$/.exec(path);
    if (m) return echo(await refund(body, found.account, found.scope, m[1], key));
    return serviceError(404, "000", "Not Found", "validation");
  }

  return {
    prefix: "/adyen/",
    route,
    refusal: (kind) =>
      ({
        unavailable: serviceError(503, "000", "Service Unavailable", "internal"),
        not_json: serviceError(400, "702", "Unable to parse the request body", "validation"),
        too_large: serviceError(413, "702", "The request body is too large", "validation"),
        internal: serviceError(500, "000", "Internal error", "internal"),
      })[kind],
  };
}
