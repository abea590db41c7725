/**
 * The Checkout.com stand-in's HTTP API under /checkout, on Checkout.com's
 * own paths, so that a `checkout` account whose url is
 * http://<simulator>/checkout speaks to it as to the sandbox:
 *
 *   POST /checkout/payments                  a card sale; a card payout when the body has a `destination`
 *   GET  /checkout/payments?reference=R      the payments with that reference, newest first
 *   GET  /checkout/payments/{pay_|sid_}      the payment (or payout) now
 *   POST /checkout/payments/{id}/refunds     a full or partial refund (202; the outcome by webhook)
 *   GET  /checkout/payments/{pay_}/actions   the payment's actions, latest first (its refunds with their references)
 *   GET|POST /checkout/3ds/{sid}             the 3-D Secure challenge page (the customer's browser)
 *
 * `Authorization: Bearer <secret_key>` picks the account. `Cko-Idempotency-Key`
 * replays the recorded answer to the same body, answers 409 to another body
 * and 429 while the first request is still being decided. Faults (test mode)
 * apply to POST /payments by idempotency key or card number, and to a
 * refund by its idempotency key.
 */
import type { IncomingMessage } from "node:http";
import type { AccountBook, CheckoutAccount } from "../accounts.ts";
import { challengeAnswer, challengeChoice, challengePage, withQuery } from "../challenge-page.ts";
import type { Dialect } from "../dialect.ts";
import type { FaultSwitch } from "../faults.ts";
import { type Answer, baseUrl, header, parseJson, readRaw } from "../http.ts";
import { answerOnce, type Decided, type IdempotencyBook } from "../idempotency.ts";
import type { KeyLock } from "../key-lock.ts";
import type { Entry, Ledger } from "../ledger.ts";
import type { CheckoutBook, CkoEntry, CkoPayment } from "./book.ts";
import { completeChallenge, takePayment, takeRefund } from "./decide.ts";
import { ckoEvents } from "./events.ts";
import { readPaymentRequest, readRefundRequest } from "./requests.ts";
import { acceptedResponse, actions, ckoError, ckoHeaders, details, list, paymentResponse, refundAccepted } from "./views.ts";

const MAX_BODY = 64 * 1024;
const ID = /^(pay|sid)_\w{26}$/;

export interface CheckoutDeps {
  ledger: Ledger;
  book: CheckoutBook;
  idempotency: IdempotencyBook;
  accounts: AccountBook<CheckoutAccount>;
  faults: FaultSwitch;
  locks: KeyLock;
  now: () => number;
}

const withHeaders = (a: Answer): Answer => ({ ...a, headers: { ...ckoHeaders(), ...a.headers } });

export function checkoutDialect(deps: CheckoutDeps): Dialect {
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
      busy: () => ckoError(429, "too_many_requests", ["duplicate_request_in_progress"]),
      otherBody: () => ckoError(409, "request_invalid", ["idempotency_key_reused"]),
    });

  async function pay(req: IncomingMessage, account: CheckoutAccount, scope: string, base: string): Promise<Answer | undefined> {
    const body = parseJson(await readRaw(req, MAX_BODY));
    const key = header(req, "cko-idempotency-key");
    const checked = readPaymentRequest(body, new Date(now()));
    if (!checked.ok) return ckoError(422, "request_invalid", checked.codes);
    const fault = deps.faults.take(key ?? "", checked.value.card.number);
    if (fault?.kind === "5xx") return ckoError(503, "service_unavailable");
    const answer = await once(`cko/${scope}/payments`, key, body, () => {
      const taken = takePayment(scope, checked.value, now());
      const challengeUrl = taken.p.three_ds?.challenged ? `${base}/3ds/${taken.p.sid}` : undefined;
      const shown = taken.http === 201 ? paymentResponse(taken.p, base) : acceptedResponse(taken.p, base, challengeUrl);
      const entries: Entry[] = [{ t: "cko.payment", p: taken.p } satisfies CkoEntry, ...ckoEvents(account, taken.p, taken.events, base, now())];
      return { answer: { http: taken.http, body: shown }, entries };
    });
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return undefined;
    }
    if (fault?.kind === "timeout") await new Promise((r) => setTimeout(r, fault.delayMs).unref());
    return answer;
  }

  async function refund(req: IncomingMessage, account: CheckoutAccount, scope: string, id: string, base: string): Promise<Answer | undefined> {
    const body = parseJson(await readRaw(req, MAX_BODY));
    const checked = readRefundRequest(body);
    if (!checked.ok) return ckoError(422, "request_invalid", checked.codes);
    const key = header(req, "cko-idempotency-key");
    const fault = key ? deps.faults.take(key, undefined) : undefined;
    if (fault?.kind === "5xx") return ckoError(503, "service_unavailable");
    const run = () => {
      const p = book.find(scope, id);
      if (!p || p.id !== id) return { answer: { http: 404 }, entries: [] };
      const d = takeRefund(p, checked.value, now());
      if (!d.ok) return { answer: d.http === 403 ? { http: 403 } : ckoError(422, "request_invalid", d.codes), entries: [] };
      const after = { ...p, refunds: [...p.refunds, d.refund] };
      const entries: Entry[] = [
        { t: "cko.refund", scope, id, refund: d.refund } satisfies CkoEntry,
        ...ckoEvents(account, after, ["payment_refunded"], base, now(), d.refund),
      ];
      return { answer: { http: 202, body: refundAccepted(p, d.refund.action_id, d.refund.reference, base) }, entries };
    };
    const answer = await once(`cko/${scope}/refunds/${id}`, key, body, run, `cko-pay/${scope}/${id}`);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return undefined;
    }
    if (fault?.kind === "timeout") await new Promise((r) => setTimeout(r, fault.delayMs).unref());
    return answer;
  }

  /** The customer's page: shown, then answered once; the browser goes back to the payment's success or failure URL. */
  async function challenge(req: IncomingMessage, sid: string, base: string): Promise<Answer> {
    const found = book.bySession(sid);
    if (!found?.three_ds?.challenged) return challengeAnswer("<!doctype html><title>Not found</title><p>No such 3-D Secure session.</p>", 404);
    const view = (p: CkoPayment) => ({
      acquirer: "Checkout.com",
      amountMinor: p.amount,
      currency: p.currency,
      last4: p.card.last4,
      result: p.three_ds?.result,
    });
    if (req.method === "GET") return challengeAnswer(challengePage(view(found)));
    const choice = challengeChoice((await readRaw(req, 1024)).toString("utf8"));
    if (!choice) return challengeAnswer(challengePage(view(found)), 400);
    const p = await locks.run(`cko-pay/${found.scope}/${found.id}`, async () => {
      const done = completeChallenge(found, choice === "passed", now());
      if (done) {
        const account = accounts.byScope(found.scope);
        const events = account ? ckoEvents(account, { ...found, ...done.set }, done.events, base, now()) : [];
        await ledger.append({ t: "cko.update", scope: found.scope, id: found.id, set: done.set } satisfies CkoEntry, ...events);
      }
      return found;
    });
    const back = p.three_ds?.result === "passed" ? p.success_url : p.failure_url;
    if (!back) return challengeAnswer(challengePage(view(p)));
    return { http: 303, headers: { location: withQuery(back, { "cko-session-id": p.sid }), "cache-control": "no-store" } };
  }

  async function route(req: IncomingMessage, url: URL): Promise<Answer | undefined> {
    const path = url.pathname.slice("/checkout".length);
    const base = `${baseUrl(req)}/checkout`;
    const page = /^\/3ds\/(sid_\w{26})$/.exec(path);
    if (page && (req.method === "GET" || req.method === "POST")) return challenge(req, page[1], base);
    const found = accounts.find(/^Bearer (.+)$/.exec(header(req, "authorization") ?? "")?.[1]);
    if (!found) return { http: 401, headers: { "www-authenticate": "Bearer" } };
    const { account, scope } = found;
    if (path === "/payments" && req.method === "POST") return pay(req, account, scope, base).then((a) => a && withHeaders(a));
    if (path === "/payments" && req.method === "GET") {
      const reference = url.searchParams.get("reference");
      const limit = Number(url.searchParams.get("limit") ?? 10);
      const skip = Number(url.searchParams.get("skip") ?? 0);
      const codes = [
        ...(reference ? [] : ["reference_required"]),
        ...(Number.isInteger(limit) && limit >= 1 && limit <= 100 ? [] : ["limit_invalid"]),
        ...(Number.isInteger(skip) && skip >= 0 ? [] : ["skip_invalid"]),
      ];
      if (codes.length > 0 || !reference) return withHeaders(ckoError(422, "request_invalid", codes));
      return withHeaders({ http: 200, body: list(book.byReference(scope, reference), base, limit, skip) });
    }
    const m = /^\/payments\/([^/]+)(\/refunds|\/actions)?$/.exec(path);
    if (!m) return withHeaders({ http: 404 });
    if (m[2] === "/refunds" && req.method === "POST") return refund(req, account, scope, m[1], base).then((a) => a && withHeaders(a));
    if (m[2] === "/actions" && req.method === "GET") {
      // By payment id only (Checkout.com's `^(pay)_(\w{26})$`), never by a 3-D Secure session's id.
      const p = /^pay_\w{26}$/.test(m[1]) ? book.find(scope, m[1]) : undefined;
      return withHeaders(p?.id === m[1] ? { http: 200, body: actions(p) } : { http: 404 });
    }
    if (!m[2] && req.method === "GET") {
      const p = ID.test(m[1]) ? book.find(scope, m[1]) : undefined;
      return withHeaders(p ? { http: 200, body: details(p, base) } : { http: 404 });
    }
    return withHeaders({ http: 405 });
  }

  return {
    prefix: "/checkout/",
    route,
    refusal: (kind) =>
      withHeaders(
        {
          unavailable: ckoError(503, "service_unavailable"),
          not_json: ckoError(422, "request_malformed"),
          too_large: ckoError(413, "request_malformed"),
          internal: ckoError(500, "internal_error"),
        }[kind],
      ),
  };
}
