/**
 * Sign-in through the console against the real engine, over HTTP: an
 * operator made through AdminService enrols from its one-time link (password
 * twice, then a code of the new TOTP key), gets ten recovery codes once and a
 * session cookie holding only the engine's token; signs in with password and
 * TOTP or a recovery code (each used once); is refused with the same words
 * for a wrong password, an unknown login and a locked operator; is locked
 * after 10 failures; is signed out after 15 idle minutes (the engine's clock
 * moved) and by the sign-out form; and the console's own limit stops an
 * address that keeps guessing.
 */
import t from "tap";
import { movableClock } from "../../../support/clock.ts";
import { ConsoleClient, createOperator, enrolOverHttp, startConsole, totpCode } from "../../../support/backoffice.ts";
import { useService } from "../../../support/service.ts";
import { processSale } from "../../../support/wire.ts";
import type { BackofficeHandle } from "../../../../edge/backoffice/server.ts";

const clock = movableClock();
const service = useService(t, {}, { now: clock.now });
let bo: BackofficeHandle;
t.before(async () => {
  bo = await startConsole(service(), { signInLimit: { failures: 40, windowSeconds: 900 } });
});
t.teardown(() => bo?.close());

async function signIn(c: ConsoleClient, login: string, password: string) {
  return c.post("/signin", { login, password }, "/signin");
}

t.test("enrolment: the password twice, then a TOTP code; recovery codes once; a session cookie with the engine's token only", async (t) => {
  const token = await createOperator(service(), "ann", "viewer");
  const c = new ConsoleClient(bo.url);
  const first = await c.get(`/enrol/${token}`);
  t.equal(first.status, 200);
  t.match(first.body, /Set up your operator/);
  t.match(first.body, /At least 12 characters\. Not a common or breached password/, "the rules are shown before the password is typed");
  const mismatch = await c.post(`/enrol/${token}`, { password: "a long enough password 1", password_again: "a long enough password 2" });
  t.equal(mismatch.status, 400);
  t.match(mismatch.body, /The two passwords are not the same/);
  const breached = await c.post(`/enrol/${token}`, { password: "password1234", password_again: "password1234" });
  t.equal(breached.status, 400, "a breached password is refused by the engine");
  t.match(breached.body, /This password is on a list of breached or common passwords\. Choose another\./, "the rule it breaks, in the console's words");
  const short = await c.post(`/enrol/${token}`, { password: "short", password_again: "short" });
  t.equal(short.status, 400, "a short one too");
  t.match(short.body, /The password needs at least 12 characters\./);
  // The engine names the rule; the console words it in the operator's language, not the engine's English.
  const german = new ConsoleClient(bo.url, "de");
  const guessable = await german.post(`/enrol/${token}`, { password: "qwertyuiopasdfgh", password_again: "qwertyuiopasdfgh" });
  t.equal(guessable.status, 400);
  t.match(guessable.body, /Dieses Passwort ist zu leicht zu erraten/, "in German");
  t.notMatch(guessable.body, /too easy to guess/, "with none of the engine's English");

  const enrolled = await enrolOverHttp(bo.url, token, "ann", undefined, clock.now);
  t.equal(enrolled.recoveryCodes.length, 10, "ten recovery codes, shown once");
  const session = enrolled.client.session();
  t.ok(session, "signed in by the enrolment");
  t.match(session!.value, /^[A-Za-z0-9_-]{20,}$/, "the cookie holds one opaque token");
  const home = await enrolled.client.get("/");
  t.equal(home.status, 200, "the console opens");
  t.match(home.body, /ann \(viewer\)/);
  const again = await new ConsoleClient(bo.url).get(`/enrol/${token}`);
  t.equal(again.status, 404, "the link works once");
  t.match(again.body, /already used or has expired/);
});

t.test("an enrolment link is the browser's that set its password: another holding it gets no secret and no session", async (t) => {
  const token = await createOperator(service(), "bound.ben", "viewer");
  const mine = new ConsoleClient(bo.url);
  const password = "staple river lantern battery";
  t.equal((await mine.post(`/enrol/${token}`, { password, password_again: password })).status, 303, "the password is set in this browser");
  const page = await mine.get(`/enrol/${token}`);
  const secret = /id="secret"[^>]*>([^<]+)</.exec(page.body)?.[1]?.replace(/\s+/g, "") ?? "";
  t.match(secret, /^[A-Z2-7]{32}$/, "this browser sees the authenticator's key");

  // A second browser with the same link (forwarded mail, a shoulder, a proxy's log).
  const other = new ConsoleClient(bo.url);
  const seen = await other.get(`/enrol/${token}`);
  t.equal(seen.status, 409);
  t.match(seen.body, /This enrolment continues in another browser/);
  t.notMatch(seen.body, new RegExp(secret), "no key shown");
  t.notMatch(seen.body, /<svg/, "no QR code");
  const taken = await other.post(`/enrol/${token}/totp`, { code: totpCode(secret, clock.now()) }, `/signin`);
  t.equal(taken.status, 409, "even the right code is refused there");
  t.match(taken.body, /continues in another browser/);
  t.equal(other.session(), undefined, "and signs no one in");
  const posted = await other.post(`/enrol/${token}`, { password: "another long password 9", password_again: "another long password 9" }, "/signin");
  t.equal(posted.location, `/enrol/${token}`, "a password sent from there is not taken: the link's page again");
  t.equal((await other.get(`/enrol/${token}`)).status, 409, "which still says the enrolment is elsewhere");
  const rows = await service().sql<{ detail: string }>(
    "select detail from audit_log where target = 'operator:bound.ben' and action = 'enrolment.totp' and outcome = 'failure'",
  );
  t.same(
    rows.map((r) => r.detail),
    ["from another browser than the one that set the password"],
    "the attempt is audited",
  );

  // The browser that set the password finishes, as before.
  const done = await mine.post(`/enrol/${token}/totp`, { code: totpCode(secret, clock.now()) }, `/enrol/${token}`);
  t.equal(done.status, 200);
  t.ok(mine.session(), "signed in by the enrolment");
});

t.test("the Operators page: a change giving payout rights waits, shown with who proposed it, until another admin confirms it", async (t) => {
  const una = await enrolOverHttp(bo.url, await createOperator(service(), "una", "admin"), "una", undefined, clock.now);
  const ivo = await enrolOverHttp(bo.url, await createOperator(service(), "ivo", "admin"), "ivo", undefined, clock.now);
  const made = await una.client.post("/operators", { login: "pia", role: "payouts", merchants: "m-test" }, "/operators");
  t.equal(made.status, 200);
  t.match(made.body, /This gives payout rights, so a second admin confirms it before anything applies/);
  const link = /\/enrol\/([A-Za-z0-9_-]{43})/.exec(made.body)?.[1] ?? "";
  t.match(made.body, /id="pending-pia"/, "the waiting change is shown");
  t.notMatch(made.body, /id="confirm-pia"/, "not offered to its proposer");
  t.equal((await new ConsoleClient(bo.url).get(`/enrol/${link}`)).status, 404, "the link does not work yet");

  const page = await ivo.client.get("/operators");
  t.match(page.body, /Waiting for a second admin: create as payouts for m-test, proposed by una\./);
  t.match(page.body, /id="confirm-pia"/, "offered to another admin");
  const confirmed = await ivo.client.post("/operators", { login: "pia", role: "payouts", merchants: "m-test" }, "/operators");
  t.equal(confirmed.status, 303);
  t.match(confirmed.location, /notice=confirmed&login=pia/);
  t.match((await ivo.client.get(confirmed.location ?? "/operators")).body, /The change of pia proposed by another admin is confirmed and applied/);
  t.equal((await new ConsoleClient(bo.url).get(`/enrol/${link}`)).status, 200, "the proposer's link works now");

  const own = await una.client.post("/operators/pia/reset", {}, "/operators");
  t.equal(own.status, 200, "una proposes pia's reset");
  const selfConfirm = await una.client.post("/operators/pia/reset", {}, "/operators");
  t.equal(selfConfirm.status, 409, "and cannot confirm it herself: the page says why");
  t.match(selfConfirm.body, /una (proposed this change|set up the access) of pia/);
});

t.test("sign-in: password then TOTP; a recovery code works once; sign-out ends the session", async (t) => {
  const token = await createOperator(service(), "ben", "support");
  const ben = await enrolOverHttp(bo.url, token, "ben", undefined, clock.now);
  const c = new ConsoleClient(bo.url);
  const step = await signIn(c, "ben", ben.password);
  t.equal(step.status, 200);
  t.match(step.body, /Signing in as ben/);
  t.notOk(c.session(), "no session before the second factor");
  const wrong = await c.post("/signin/totp", { totp: "000000" }, "/signin");
  t.equal(wrong.status, 401);
  t.match(wrong.body, /The code is wrong or has expired/);
  // The enrolment used this 30-second step's code, and a code works once: the next step's.
  clock.advance(30_000);
  const ok = await c.post("/signin/totp", { totp: totpCode(ben.secret, clock.now()) }, "/signin");
  t.equal(ok.status, 303);
  t.equal(ok.location, "/");
  t.ok(c.session(), "signed in");
  t.equal((await c.get("/")).status, 200);
  const out = await c.post("/signout", {}, "/");
  t.equal(out.status, 303);
  t.equal(out.location, "/signin?m=signedout");
  t.notOk(c.session(), "the cookie is cleared");

  const r = new ConsoleClient(bo.url);
  await signIn(r, "ben", ben.password);
  const code = ben.recoveryCodes[0];
  const used = await r.post("/signin/recovery", { recovery: code }, "/signin");
  t.equal(used.status, 303, "a recovery code signs in");
  const r2 = new ConsoleClient(bo.url);
  await signIn(r2, "ben", ben.password);
  const twice = await r2.post("/signin/recovery", { recovery: code }, "/signin");
  t.equal(twice.status, 401, "but only once");
  t.match(twice.body, /wrong or was already used/);
});

t.test("a stolen session cookie is useless after sign-out", async (t) => {
  const token = await createOperator(service(), "cat", "viewer");
  const cat = await enrolOverHttp(bo.url, token, "cat", undefined, clock.now);
  const stolen = cat.client.session()!;
  await cat.client.post("/signout", {}, "/");
  const thief = new ConsoleClient(bo.url);
  thief.cookies.set(stolen.name, stolen.value);
  const res = await thief.get("/");
  t.equal(res.status, 303);
  t.match(res.location, /^\/signin/);
});

t.test("wrong password, unknown login: the same answer; 10 failures lock the operator for 30 minutes", async (t) => {
  const token = await createOperator(service(), "dan", "viewer");
  const dan = await enrolOverHttp(bo.url, token, "dan", undefined, clock.now);
  const c = new ConsoleClient(bo.url);
  const unknown = await signIn(c, "nobody-here", "whatever password");
  const wrong = await signIn(c, "dan", "not the password at all");
  t.equal(unknown.status, 401);
  t.equal(wrong.status, 401);
  const message = (b: string) => /id="notice">([^<]+)</.exec(b)?.[1];
  t.equal(message(unknown.body), message(wrong.body), "no hint whether the login exists");
  for (let i = 0; i < 9; i++) await signIn(c, "dan", `wrong password number ${i}`);
  const locked = await signIn(c, "dan", dan.password);
  t.equal(locked.status, 401, "the right password is refused while locked");
  t.match(locked.body, /locked for 30 minutes/);
  clock.advance(31 * 60_000);
  const after = await signIn(c, "dan", dan.password);
  t.equal(after.status, 200, "30 minutes later the password works again");
  t.match(after.body, /Second step/);
});

t.test("15 idle minutes end the session: the next page says so", async (t) => {
  const token = await createOperator(service(), "eve", "viewer");
  const eve = await enrolOverHttp(bo.url, token, "eve", undefined, clock.now);
  t.equal((await eve.client.get("/")).status, 200);
  clock.advance(14 * 60_000);
  t.equal((await eve.client.get("/")).status, 200, "14 minutes: still signed in (and that page was activity)");
  clock.advance(16 * 60_000);
  const idle = await eve.client.get("/");
  t.equal(idle.status, 303);
  t.equal(idle.location, "/signin?m=idle");
  const page = await eve.client.get("/signin?m=idle");
  t.match(page.body, /Your session has ended: 15 minutes without activity/);
  t.notOk(eve.client.session(), "the cookie is gone");
});

t.test("the console's own limit: an address that keeps failing waits before the engine is asked", async (t) => {
  const limited = await startConsole(service(), { signInLimit: { failures: 3, windowSeconds: 600 } });
  t.teardown(() => limited.close());
  const c = new ConsoleClient(limited.url);
  for (let i = 0; i < 3; i++) t.equal((await signIn(c, "frank", `guess ${i} of many`)).status, 401);
  const stopped = await signIn(c, "frank", "one more guess");
  t.equal(stopped.status, 429);
  t.match(stopped.body, /Too many sign-in attempts from here/);
  // An enrolment form sent from that address waits too, and says so on the enrolment page, its link still good.
  const token = await createOperator(service(), "hal", "viewer");
  const enrol = await c.post(`/enrol/${token}`, { password: "a long enough password 1", password_again: "a long enough password 1" }, `/enrol/${token}`);
  t.equal(enrol.status, 429);
  t.match(enrol.body, /Set up your operator/, "the enrolment page, not the sign-in page");
  t.match(enrol.body, /Too many sign-in attempts from here/);
});

t.test("guesses sent at the same moment are counted before any is judged", async (t) => {
  const limited = await startConsole(service(), { signInLimit: { failures: 3, windowSeconds: 600 } });
  t.teardown(() => limited.close());
  // Twelve browsers at one address, at once: each guess takes its attempt before the engine is asked.
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(new ConsoleClient(limited.url), "gina", `burst guess ${i}`)));
  const statuses = answers.map((a) => a.status).sort();
  t.same(statuses, [401, 401, 401, 429, 429, 429, 429, 429, 429, 429, 429, 429], "three judged, nine told to wait");
  const right = await startConsole(service(), { signInLimit: { failures: 2, windowSeconds: 600 } });
  t.teardown(() => right.close());
  const c = new ConsoleClient(right.url);
  for (let i = 0; i < 3; i++) t.equal((await signIn(c, "nobody-at-all", "")).status, 400, "a form without a password is not a guess");
  t.equal((await signIn(c, "nobody-at-all", "a guess")).status, 401, "and took no attempt: the next guess is judged");
});

t.test("ids out of the engine's range name nothing: 404, never a 500", async (t) => {
  const token = await createOperator(service(), "ivy", "admin");
  const ivy = await enrolOverHttp(bo.url, token, "ivy", undefined, clock.now);
  for (const path of ["/payouts/2147483648", "/payouts/9999999999", "/transactions/2147483648"]) {
    t.equal((await ivy.client.get(path)).status, 404, `GET ${path}`);
  }
  for (const [path, fields] of [
    ["/payouts/2147483648/decision", { decision: "approve", reason: "checks_passed" }],
    ["/transactions/2147483648/check", {}],
    ["/transactions/3/callbacks/9999999999999999999/redeliver", {}],
    ["/stuck/callbacks/9999999999999999999/redeliver", {}],
  ] as const) {
    t.equal((await ivy.client.post(path, fields, "/")).status, 404, `POST ${path}`);
  }
  const bulk = await ivy.client.post("/payouts/bulk-approve", { trace_id: "2147483648", reason: "checks_passed" }, "/payouts");
  t.equal(bulk.status, 400, "bulk approval of an id out of range: none chosen, the queue asks for a selection");
  t.match(bulk.body, /Select at least one payout\./);
  const many = await ivy.client.post(
    "/payouts/bulk-approve",
    { trace_id: Array.from({ length: 101 }, (_, i) => String(i + 1)), reason: "checks_passed" },
    "/payouts",
  );
  t.equal(many.status, 400, "101 payouts at once: refused whole, not cut to the first hundred");
  t.match(many.body, /At most 100 payouts can be approved at once; 101 were chosen\. Nothing was approved\./);
});

t.test("a decision's note over its limit, or a reason that does not fit the decision, is refused on the page, never cut or taken", async (t) => {
  const token = await createOperator(service(), "joy", "payouts");
  const joy = await enrolOverHttp(bo.url, token, "joy", undefined, clock.now);
  const made = await processSale(service().edgeUrl, {
    merchant_id: "m-manual",
    frontend: "manual-usd",
    transaction_type: "payout",
    cvv: undefined,
    timestamp: Math.floor(clock.now().getTime() / 1000),
  });
  t.equal(made.body.transaction_status, "requested");
  const traceId = made.body.trace_id as number;
  const path = `/payouts/${traceId}/decision`;
  const long = await joy.client.post(path, { decision: "reject", reason: "kyc_incomplete", note: `${"n".repeat(235)}END9` }, "/payouts");
  t.equal(long.status, 400);
  t.match(long.body, /The note is at most 238 characters; this one has 239\./);
  const fraud = await joy.client.post(path, { decision: "approve", reason: "suspected_fraud" }, "/payouts");
  t.equal(fraud.status, 400);
  t.match(fraud.body, /An approval takes the reason Checks passed, or Other with a note\./);
  const passed = await joy.client.post(path, { decision: "reject", reason: "checks_passed" }, "/payouts");
  t.equal(passed.status, 400);
  t.match(passed.body, /Checks passed is a reason to approve/);
  const bulk = await joy.client.post("/payouts/bulk-approve", { trace_id: String(traceId), reason: "abuse" }, "/payouts");
  t.equal(bulk.status, 400);
  t.match(bulk.body, /An approval takes the reason Checks passed/);
  const [row] = await service().sql<{ status: string }>("select status from transaction where trace_id = $1", [traceId]);
  t.equal(row.status, "requested", "nothing was decided");
  // Each of those refusals, made by the console itself, is in the audit log as the action's failure, in English.
  const audited = await service().sql<{ action: string; detail: string }>(
    "select action, detail from audit_log where actor = 'joy' and outcome = 'failure' and target like $1 order by id",
    [`%trace_id:${traceId}%`],
  );
  t.same(
    audited.map((r) => [r.action, r.detail.slice(0, 30)]),
    [
      ["payout.decide", "The note is at most 238 charac"],
      ["payout.decide", "An approval takes the reason C"],
      ["payout.decide", "Checks passed is a reason to a"],
      ["payout.approve", "An approval takes the reason C"],
    ],
    "every refused form is audited",
  );
  // A viewer's malformed decision is "Not allowed", as a well-formed one is, and audited as a role refusal.
  const viewerToken = await createOperator(service(), "vic", "viewer");
  const vic = await enrolOverHttp(bo.url, viewerToken, "vic", undefined, clock.now);
  const forged = await vic.client.post(path, { decision: "approve", reason: "suspected_fraud" }, "/payouts");
  t.equal(forged.status, 403);
  t.match(forged.body, /Not allowed/);
  t.notMatch(forged.body, /name="decision"/, "no decision form for a viewer");
  const [denied] = await service().sql<{ detail: string }>("select detail from audit_log where actor = 'vic' and outcome = 'failure'");
  t.equal(denied?.detail, "role viewer does not allow payout.decide");
});

t.test("a secret rotation's overlap is one of those offered, or it is refused naming it", async (t) => {
  const token = await createOperator(service(), "kim", "admin");
  const kim = await enrolOverHttp(bo.url, token, "kim", undefined, clock.now);
  const secret = async () => (await service().sql<{ secret_sealed: string }>("select secret_sealed from merchant where id = 'm-manual'"))[0].secret_sealed;
  const before = await secret();
  const odd = await kim.client.post(
    "/merchants/m-manual/rotate-secret",
    { new_secret: "a-new-secret-0123456789-kim", overlap_hours: "5" },
    "/merchants/m-manual",
  );
  t.equal(odd.status, 400);
  t.match(odd.body, /overlap_hours: choose one of the offered overlaps/);
  t.equal(await secret(), before, "and the secret is as it was");
  t.match(odd.body, /<h1[^>]*>[^<]*m-manual/, "shown on the merchant's page, its forms still at hand");
  t.match(odd.body, /name="new_secret"/);
  // The engine's refusals of a form show there too, naming the field.
  const url = await kim.client.post("/merchants/m-manual/settings", { platform_url: "ftp://nowhere" }, "/merchants/m-manual");
  t.equal(url.status, 400);
  t.match(url.body, /platform_url: must be an http\(s\) URL/);
  t.match(url.body, /<h1[^>]*>[^<]*m-manual/);
  // A password in a callback address would be shown to every operator who may read the merchant: refused.
  const withPassword = "http://cbuser:S3cretPass@127.0.0.1:9/api/UpdatePayout";
  const cred = await kim.client.post("/merchants/m-manual/settings", { update_payout_url: withPassword }, "/merchants/m-manual");
  t.equal(cred.status, 400);
  t.match(cred.body, /update_payout_url: must not carry a user name or password/);
  t.notMatch((await kim.client.get("/merchants/m-manual")).body, "S3cretPass", "nor kept");
  const amount = await kim.client.post("/merchants/m-manual/four-eyes", { thresholds: "USD -5.00" }, "/merchants/m-manual");
  t.equal(amount.status, 400);
  t.match(amount.body, /<h1[^>]*>[^<]*m-manual/);
  // A line the console cannot read is refused there, and audited as the engine's refusals are.
  const unread = await kim.client.post("/merchants/m-manual/four-eyes", { thresholds: "USD abc" }, "/merchants/m-manual");
  t.equal(unread.status, 400);
  const fourEyes = await service().sql<{ detail: string }>(
    "select detail from audit_log where actor = 'kim' and action = 'merchant.four_eyes' and outcome = 'failure' order by id",
  );
  t.equal(fourEyes.length, 2, "the refused amount and the unread line are both audited");
  t.match(fourEyes[1]?.detail, /^Line 1/);
});

t.test("an operator form the engine refuses shows the operators page again with why", async (t) => {
  const token = await createOperator(service(), "max", "admin");
  const max = await enrolOverHttp(bo.url, token, "max", undefined, clock.now);
  const bad = await max.client.post("/operators", { login: "No Spaces!", role: "viewer", merchants: "" }, "/operators");
  t.equal(bad.status, 400);
  t.match(bad.body, /login: must be 3 to 64 of a-z/);
  t.match(bad.body, /name="login"/, "the form to try again is on the page");
  const taken = await max.client.post("/operators", { login: "max", role: "viewer", merchants: "" }, "/operators");
  t.equal(taken.status, 409);
  t.match(taken.body, /an operator with login max already exists/);
  const self = await max.client.post("/operators/max/role", { role: "viewer", merchants: "" }, "/operators");
  t.equal(self.status, 400);
  t.match(self.body, /an operator cannot change its own role or scope/);
});

t.test("a merchant settings post changes only the fields it sends", async (t) => {
  const token = await createOperator(service(), "lou", "admin");
  const lou = await enrolOverHttp(bo.url, token, "lou", undefined, clock.now);
  const approval = async () =>
    (await service().sql<{ payout_approval: string }>("select payout_approval from merchant where id = 'm-manual'"))[0].payout_approval;
  t.equal(await approval(), "manual");
  const saved = await lou.client.post("/merchants/m-manual/settings", { platform_url: "https://platform.example" }, "/merchants/m-manual");
  t.equal(saved.status, 303, "saved");
  t.equal(await approval(), "manual", "a post without payout_approval leaves manual review on");
  const odd = await lou.client.post("/merchants/m-manual/settings", { payout_approval: "sometimes" }, "/merchants/m-manual");
  t.equal(odd.status, 400, "a value the form does not offer is refused");
  t.equal(await approval(), "manual");
});

t.test("search and export filters that are there but not understood are named, never dropped", async (t) => {
  const token = await createOperator(service(), "fay", "admin");
  const { client } = await enrolOverHttp(bo.url, token, "fay", undefined, clock.now);
  for (const [query, fields] of [
    ["from=27/11/2026", "from"],
    ["from=2026-13-45", "from"],
    ["from=2026-02-30", "from"],
    ["from=2026-12-01&to=2026-01-01", "to"],
    ["status=bogus&type=bogus", "status, type"],
  ] as const) {
    const page = await client.get(`/transactions?${query}`);
    t.equal(page.status, 200, `/transactions?${query} shows the search`);
    t.match(page.body, `These filters are not understood: ${fields}.`, "naming the filters");
    t.match(page.body, /<tbody><tr><td colspan="\d+" class="muted">/, "and no rows as if they answered it");
    const csv = await client.get(`/transactions.csv?${query}`);
    t.equal(csv.status, 400, "an export of it is refused");
    t.match(csv.body, `These filters are not understood: ${fields}.`);
  }
  // A trace id that names no attempt: an empty list saying why, never every row; an export naming any trace id is
  // refused (the engine's search has no such filter, so it would have exported everything).
  for (const trace of ["abc", "-1", "0", "99999999999"]) {
    const page = await client.get(`/transactions?trace_id=${trace}`);
    t.match(page.body, "A trace id is a whole number from 1 to 2147483647.", `trace_id=${trace}: said`);
    t.match(page.body, /<tbody><tr><td colspan="\d+" class="muted">/, `trace_id=${trace}: no rows`);
    const csv = await client.get(`/transactions.csv?trace_id=${trace}`);
    t.equal(csv.status, 400, `trace_id=${trace}: its export is refused`);
  }
  const one = await client.get("/transactions.csv?trace_id=1");
  t.equal(one.status, 400, "an export with a good trace id is refused too");
  t.match(one.body, "A trace id names one transaction, which has its own page: an export is of a search without one.");
  const audit = await client.get("/audit?from=garbage");
  t.match(audit.body, "These filters are not understood: from.");
  t.equal((await client.get("/audit.csv?from=2026-12-01&to=2026-01-01")).status, 400);
  const fine = await client.get("/transactions?from=2026-01-01&to=2026-12-31&status=approved&type=sale");
  t.notMatch(fine.body, /not understood/, "well-formed filters are taken");
  // Exports keep the milliseconds the pages show and the audit hash covers.
  const rows = await service().sql<{ at: string }>(
    "select to_char(at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') as at from audit_log where actor = 'fay' order by id",
  );
  const exported = (await client.get("/audit.csv")).body;
  t.ok(rows.length > 0);
  for (const r of rows) t.match(exported, r.at, `the export writes ${r.at} as stored`);
});
