/**
 * Operators over real gRPC against the running engine: the operator command
 * creates, resets and disables them and prints a one-time enrolment link;
 * enrolment sets a password (12+ characters, not breached), confirms a TOTP
 * secret with a real code and hands out recovery codes once; sign-in takes
 * the password then a second factor; 10 failures lock for 30 minutes; a
 * session ends after 15 idle minutes or at sign-out; refusals never tell
 * whether a login exists; credentials are stored only hashed or sealed.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { ConsoleErrorReason, ConsoleErrorSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { EnrolmentStep } from "../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { OperatorRole, OperatorState } from "../../gen/cashier/admin/v1/operator_pb.js";
import { totpCode } from "../../engine/console/domain/operator-credentials.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { BROWSER_KEY, backofficeClient, ctx, enrolOperator, PASSWORD, runOperatorCommand, signInTotp } from "../support/operators.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

t.test("the operator command creates an operator and prints a one-time enrolment link that enrols it", async (t) => {
  const out = await runOperatorCommand(svc(), ["create", "cli.jane", "--role", "payouts", "--merchant", "m-test"]);
  t.equal(out.code, 0, out.stderr);
  const link = /https:\/\/backoffice\.example\/enrol\/([A-Za-z0-9_-]{43})/.exec(out.stdout);
  t.ok(link, "the link is printed under BACKOFFICE_PUBLIC_URL");
  const token = link?.[1] ?? "";
  const view = await bo().getEnrolment({ context: ctx(), token, browserKey: BROWSER_KEY });
  t.equal(view.login, "cli.jane");
  t.equal(view.role, OperatorRole.PAYOUTS);
  t.same(view.merchantIds, ["m-test"]);
  t.equal(view.step, EnrolmentStep.PASSWORD);

  // Short, breached and login-containing passwords are refused, naming the field.
  for (const [bad, rule] of [
    ["short-pass", "password.too_short"],
    ["passwordpassword", "password.breached"],
    ["cli.jane-is-my-password", "password.has_login"],
  ]) {
    const r = await refusal(bo().setEnrolmentPassword({ context: ctx(), token, browserKey: BROWSER_KEY, password: bad }));
    t.equal(r.code, Code.InvalidArgument, bad);
    t.same(r.fields, ["password"], bad);
    t.same(r.rules, [rule], `${bad}: the rule named, for a client to word`);
  }
  const refusedSteps = await svc().sql<{ detail: string }>(
    "select detail from audit_log where actor = 'cli.jane' and action = 'enrolment.password' and outcome = 'failure' order by id",
  );
  t.equal(refusedSteps.length, 3, "each refused password is audited");
  t.notOk(
    refusedSteps.some((r) => /passwordpassword|short-pass/.test(r.detail)),
    "by its reason, never the password",
  );
  const set = await bo().setEnrolmentPassword({ context: ctx(), token, browserKey: BROWSER_KEY, password: PASSWORD });
  t.match(set.totp?.otpauthUri, /^otpauth:\/\/totp\/Cashier%20Backoffice:cli\.jane\?/);
  const again = await bo().getEnrolment({ context: ctx(), token, browserKey: BROWSER_KEY });
  t.equal(again.step, EnrolmentStep.TOTP, "a reload shows the TOTP step with the same secret");
  t.equal(again.totp?.secretBase32, set.totp?.secretBase32);

  const wrong = await refusal(bo().confirmEnrolmentTotp({ context: ctx(), token, browserKey: BROWSER_KEY, code: "000000" }));
  t.equal(wrong.code, Code.InvalidArgument);
  t.same(wrong.fields, ["code"]);
  const done = await bo().confirmEnrolmentTotp({
    context: ctx(),
    token,
    browserKey: BROWSER_KEY,
    code: totpCode(set.totp?.secretBase32 ?? "", "cli.jane", clock.now()),
  });
  t.equal(done.recoveryCodes.length, 10);
  t.equal(done.session?.operator?.state, OperatorState.ACTIVE);
  t.ok(done.session?.allowedActions.includes("payout.decide"));
  t.notOk(done.session?.allowedActions.includes("merchant.update"));

  const used = await refusal(bo().getEnrolment({ context: ctx(), token, browserKey: BROWSER_KEY }));
  t.equal(used.code, Code.NotFound, "the link works once");
  t.equal(used.consoleReason, ConsoleErrorReason.ENROLMENT_INVALID);

  // Stored: an Argon2id hash, a sealed TOTP secret, hashed recovery codes and session tokens.
  const [row] = await svc().sql<{ password_hash: string; totp_sealed: string; recovery_hashes: string[] }>(
    "select password_hash, totp_sealed, recovery_hashes from operator where login = 'cli.jane'",
  );
  t.match(row.password_hash, /^\$argon2id\$/);
  t.notOk(row.totp_sealed.includes(set.totp?.secretBase32 ?? "x"));
  t.notOk(JSON.stringify(row.recovery_hashes).includes(done.recoveryCodes[0]));
  const sessions = await svc().sql<{ token_hash: string }>("select token_hash from console_session");
  t.notOk(sessions.some((s) => s.token_hash === done.session?.sessionToken));
});

t.test("sign-in: password then TOTP or a recovery code (once); sign-out ends the session", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "sam", "viewer");
  // Signed in by hand, to replay this very code below (a code read from the clock again could be the next step's).
  clock.advance(30_000);
  const code = totpCode(op.totpSecret, "sam", clock.now());
  const first = await bo().signIn({ context: ctx(), login: "sam", password: PASSWORD });
  const signedIn = await bo().completeSignIn({ context: ctx(), pendingToken: first.pendingToken, factor: { case: "totpCode", value: code } });
  const token = signedIn.session?.sessionToken ?? "";
  const me = await bo().getConsoleSession({ context: ctx(token) });
  t.equal(me.session?.operator?.login, "sam");
  t.same(me.session?.allowedActions, ["transaction.read", "payout.read", "merchant.read", "dashboard.read"]);

  // The same TOTP code cannot be used twice.
  const pending = await bo().signIn({ context: ctx(), login: "sam", password: PASSWORD });
  const replay = await refusal(
    bo().completeSignIn({
      context: ctx(),
      pendingToken: pending.pendingToken,
      factor: { case: "totpCode", value: code },
    }),
  );
  t.equal(replay.consoleReason, ConsoleErrorReason.SECOND_FACTOR_REFUSED, "a used code is refused");
  const viaRecovery = await bo().completeSignIn({
    context: ctx(),
    pendingToken: pending.pendingToken,
    factor: { case: "recoveryCode", value: op.recoveryCodes[0].toUpperCase() },
  });
  t.ok(viaRecovery.session?.sessionToken, "a recovery code signs in");
  t.equal(viaRecovery.session?.operator?.recoveryCodesLeft, 9);
  const p2 = await bo().signIn({ context: ctx(), login: "sam", password: PASSWORD });
  const reuse = await refusal(
    bo().completeSignIn({ context: ctx(), pendingToken: p2.pendingToken, factor: { case: "recoveryCode", value: op.recoveryCodes[0] } }),
  );
  t.equal(reuse.consoleReason, ConsoleErrorReason.SECOND_FACTOR_REFUSED, "a recovery code works once");

  await bo().signOut({ context: ctx(token) });
  const after = await refusal(bo().getConsoleSession({ context: ctx(token) }));
  t.equal(after.code, Code.Unauthenticated);
  t.equal(after.consoleReason, ConsoleErrorReason.SESSION_ENDED);
  const none = await refusal(bo().getConsoleSession({ context: ctx("not-a-token") }));
  t.equal(none.consoleReason, ConsoleErrorReason.SESSION_REQUIRED);
});

t.test("refusals of the first step are one answer, whether the login exists or not", async (t) => {
  await enrolOperator(svc(), bo(), clock, "olga", "viewer");
  const unknown = await refusal(bo().signIn({ context: ctx(), login: "nobody-here", password: PASSWORD }));
  const wrong = await refusal(bo().signIn({ context: ctx(), login: "olga", password: "not the password at all" }));
  t.equal(unknown.code, Code.Unauthenticated);
  t.equal(unknown.consoleReason, ConsoleErrorReason.SIGN_IN_REFUSED);
  t.same(wrong, unknown, "same code, reason and message");
  const audit = await svc().sql<{ actor: string; detail: string }>("select actor, detail from audit_log where action = 'sign_in' and outcome = 'failure'");
  t.ok(
    audit.some((a) => a.actor === "nobody-here" && a.detail === "unknown login"),
    "the audit log tells them apart, for admins",
  );
  t.ok(audit.some((a) => a.actor === "olga" && a.detail === "wrong password"));
  // A typed login is kept without its control characters, every one of them (C1's terminal escape U+009B too).
  await refusal(bo().signIn({ context: ctx("", "198.51.100.7\u0000\u0085"), login: "x\u0007y\u009bz\u0001", password: PASSWORD }));
  const [typed] = await svc().sql<{ actor: string; client_address: string }>(
    "select actor, client_address from audit_log where action = 'sign_in' and actor like 'x%' order by id desc limit 1",
  );
  t.equal(typed.actor, "x?y?z?");
  t.equal(typed.client_address, "198.51.100.7");
});

t.test("an enrolment link is used once, also by requests sent together", async (t) => {
  const out = await runOperatorCommand(svc(), ["create", "kai", "--role", "viewer"]);
  const token = /\/enrol\/([A-Za-z0-9_-]{43})/.exec(out.stdout)?.[1] ?? "";
  // Two password forms at once: one sets the password and the TOTP secret; the other may not replace them.
  const sets = await Promise.all(
    [PASSWORD, `${PASSWORD} and more`].map((password) =>
      bo()
        .setEnrolmentPassword({ context: ctx(), token, browserKey: BROWSER_KEY, password })
        .then((r) => r.totp?.secretBase32 ?? "")
        .catch((err: unknown) => ConnectError.from(err).code),
    ),
  );
  const secrets = sets.filter((x): x is string => typeof x === "string");
  t.equal(secrets.length, 1, "one password form is taken");
  t.same(
    sets.filter((x) => typeof x !== "string"),
    [Code.FailedPrecondition],
    "the other is refused: the password is set",
  );
  t.equal(
    (await bo().getEnrolment({ context: ctx(), token, browserKey: BROWSER_KEY })).totp?.secretBase32,
    secrets[0],
    "the link shows the secret of the form taken",
  );
  // One code, four requests at once: one session, one set of recovery codes.
  const code = totpCode(secrets[0], "kai", clock.now());
  const done = await Promise.all(
    Array.from({ length: 4 }, () =>
      bo()
        .confirmEnrolmentTotp({ context: ctx(), token, browserKey: BROWSER_KEY, code })
        .then(() => "enrolled")
        .catch((err: unknown) => ConsoleErrorReason[ConnectError.from(err).findDetails(ConsoleErrorSchema)[0]?.reason ?? 0]),
    ),
  );
  t.equal(done.filter((x) => x === "enrolled").length, 1, `one enrolment completes (${done.join(", ")})`);
  const sessions = await svc().sql<{ n: number }>("select count(*)::int as n from console_session where login = 'kai'");
  t.equal(sessions[0].n, 1, "one session");
});

t.test("10 failed attempts lock the account for 30 minutes, with the same answer as a wrong password", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "lena", "viewer");
  for (let i = 0; i < 10; i++) await refusal(bo().signIn({ context: ctx(), login: "lena", password: `wrong password ${i}` }));
  const locked = await refusal(bo().signIn({ context: ctx(), login: "lena", password: PASSWORD }));
  t.equal(locked.consoleReason, ConsoleErrorReason.SIGN_IN_REFUSED, "the right password is refused while locked");
  const [row] = await svc().sql<{ locked_until: Date }>("select locked_until from operator where login = 'lena'");
  t.ok(row.locked_until > clock.now(), "locked");
  clock.advance(29 * 60_000);
  t.equal(
    (await refusal(bo().signIn({ context: ctx(), login: "lena", password: PASSWORD }))).consoleReason,
    ConsoleErrorReason.SIGN_IN_REFUSED,
    "still locked at 29 minutes",
  );
  clock.advance(2 * 60_000);
  t.ok(await signInTotp(bo(), clock, op), "open again after 30 minutes");
});

t.test("simultaneous sign-ins cannot outrun the lock: at most 10 passwords are judged, and none once locked", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "rita", "viewer");
  // 40 wrong passwords at the same moment, then the right one: each attempt is counted before its password is
  // checked, so only 10 are judged, the account locks, and the right password learns nothing.
  const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => refusal(bo().signIn({ context: ctx(), login: "rita", password: `wrong ${i}` }))));
  t.ok(
    burst.every((r) => r.consoleReason === ConsoleErrorReason.SIGN_IN_REFUSED),
    "every one refused alike",
  );
  const judged = await svc().sql<{ n: number }>(
    "select count(*)::int as n from audit_log where actor = 'rita' and action = 'sign_in' and detail like 'wrong password%'",
  );
  t.equal(judged[0].n, 10, "ten passwords judged, not forty");
  t.equal(
    (await refusal(bo().signIn({ context: ctx(), login: "rita", password: PASSWORD }))).consoleReason,
    ConsoleErrorReason.SIGN_IN_REFUSED,
    "the right password is refused: locked",
  );
  clock.advance(31 * 60_000);
  t.ok(await signInTotp(bo(), clock, op), "open again after 30 minutes");
});

t.test("wrong second factors count toward the lock", async (t) => {
  await enrolOperator(svc(), bo(), clock, "tom", "viewer");
  const pending = await bo().signIn({ context: ctx(), login: "tom", password: PASSWORD });
  let last: Awaited<ReturnType<typeof refusal>> | undefined;
  for (let i = 0; i < 10; i++)
    last = await refusal(bo().completeSignIn({ context: ctx(), pendingToken: pending.pendingToken, factor: { case: "totpCode", value: "123456" } }));
  t.equal(last?.consoleReason, ConsoleErrorReason.SIGN_IN_REFUSED, "the 10th failure locks and ends the pending sign-in");
  t.equal((await refusal(bo().signIn({ context: ctx(), login: "tom", password: PASSWORD }))).consoleReason, ConsoleErrorReason.SIGN_IN_REFUSED);
});

t.test("an operator changes their own password: the current one is judged like a sign-in's, other sessions end", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "paula", "viewer");
  const other = await signInTotp(bo(), clock, op);
  const here = op.sessionToken;
  const NEW = "a quite different phrase 77";
  const change = (currentPassword: string, newPassword: string, token = here) =>
    refusal(bo().changePassword({ context: ctx(token), currentPassword, newPassword }));

  t.same((await change("not my password at all", NEW)).fields, ["current_password"], "a wrong current password names its field");
  for (const [bad, rule] of [
    ["short-pass", "password.too_short"],
    ["passwordpassword", "password.breached"],
    ["paula-has-a-long-password", "password.has_login"],
    [PASSWORD, "password.unchanged"],
  ]) {
    const r = await change(PASSWORD, bad);
    t.equal(r.code, Code.InvalidArgument, bad);
    t.same(r.fields, ["new_password"], `${bad}: refused by enrolment's rules, or as the current one`);
    t.same(r.rules, [rule], bad);
  }
  t.equal(
    (await refusal(bo().changePassword({ context: ctx("not-a-session"), currentPassword: PASSWORD, newPassword: NEW }))).consoleReason,
    ConsoleErrorReason.SESSION_REQUIRED,
  );

  const done = await bo().changePassword({ context: ctx(here), currentPassword: PASSWORD, newPassword: NEW });
  t.equal(done.endedSessions, 1, "the other session ended");
  t.equal((await refusal(bo().getConsoleSession({ context: ctx(other) }))).consoleReason, ConsoleErrorReason.SESSION_ENDED);
  t.equal((await bo().getConsoleSession({ context: ctx(here) })).session?.operator?.login, "paula", "this session goes on");
  t.equal(
    (await refusal(bo().signIn({ context: ctx(), login: "paula", password: PASSWORD }))).consoleReason,
    ConsoleErrorReason.SIGN_IN_REFUSED,
    "the old password is refused",
  );
  t.ok(await signInTotp(bo(), clock, { ...op, password: NEW }), "the new one signs in");

  const rows = await svc().sql<{ outcome: string; detail: string }>(
    "select outcome, detail from audit_log where actor = 'paula' and action = 'operator.password' order by id",
  );
  t.same(
    rows.map((r) => r.outcome),
    ["failure", "failure", "failure", "failure", "failure", "success"],
    "every attempt is audited",
  );
  t.notOk(
    rows.some((r) => r.detail.includes("password at all") || r.detail.includes(NEW) || r.detail.includes(PASSWORD)),
    "by its reason, never a password",
  );
  const [stored] = await svc().sql<{ password_hash: string }>("select password_hash from operator where login = 'paula'");
  t.match(stored.password_hash, /^\$argon2id\$/, "stored only as its Argon2id hash");
});

t.test("wrong current passwords count toward the sign-in lock: a burst judges at most 10, a locked account none", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "quinn", "viewer");
  const change = (currentPassword: string, newPassword = "x") => refusal(bo().changePassword({ context: ctx(op.sessionToken), currentPassword, newPassword }));
  // Twenty wrong together through one session: each attempt is taken before its password is checked.
  const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`guess ${i} of many`)));
  t.ok(
    burst.every((r) => (r.code === Code.InvalidArgument && r.fields.join() === "current_password") || r.code === Code.FailedPrecondition),
    "each refused: a wrong password, or the account locked",
  );
  const judged = await svc().sql<{ n: number }>(
    "select count(*)::int as n from audit_log where actor = 'quinn' and action = 'operator.password' and detail like 'wrong current password%'",
  );
  t.equal(judged[0].n, 10, "ten passwords judged, not twenty");
  const right = await change(PASSWORD, "a quite different phrase 78");
  t.equal(right.code, Code.FailedPrecondition, "locked: the right password is not judged either");
  t.match(right.message, /locked for 30 minutes/);
  t.ok((await bo().getConsoleSession({ context: ctx(op.sessionToken) })).session, "the session goes on, as when sign-in locks");
  t.equal(
    (await refusal(bo().signIn({ context: ctx(), login: "quinn", password: PASSWORD }))).consoleReason,
    ConsoleErrorReason.SIGN_IN_REFUSED,
    "sign-in is locked too",
  );
  clock.advance(31 * 60_000);
  t.ok(await signInTotp(bo(), clock, op), "open again after 30 minutes, the password unchanged");
});

t.test("sign-in's lock holds for a password change; two changes at once: one wins", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "rory", "viewer");
  for (let i = 0; i < 10; i++) await refusal(bo().signIn({ context: ctx(), login: "rory", password: `wrong ${i}` }));
  const locked = await refusal(bo().changePassword({ context: ctx(op.sessionToken), currentPassword: PASSWORD, newPassword: "a quite different phrase 79" }));
  t.equal(locked.code, Code.FailedPrecondition, "locked by sign-in: the right current password is refused");
  clock.advance(31 * 60_000);

  // Two sessions (the ones before went idle while locked). Both pass the check of the same current password; the
  // first write ends the other's session, and the second is not written over it.
  const sessions = [await signInTotp(bo(), clock, op), await signInTotp(bo(), clock, op)];
  const [a, b] = await Promise.all(
    sessions.map((token, i) =>
      refusal(bo().changePassword({ context: ctx(token), currentPassword: PASSWORD, newPassword: `a quite different phrase ${80 + i}` })),
    ),
  );
  const outcomes = [a, b].map((r) => (r.code === undefined ? "changed" : r.consoleReason === ConsoleErrorReason.SESSION_ENDED ? "ended" : `other ${r.code}`));
  t.same(outcomes.sort(), ["changed", "ended"], "one change, the other refused with its session ended");
  const winner = a.code === undefined ? 80 : 81;
  t.ok(await signInTotp(bo(), clock, { ...op, password: `a quite different phrase ${winner}` }), "the winner's password is the one kept");
});

t.test("a session ends after 15 idle minutes; every call keeps it alive", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "ida", "viewer");
  const token = await signInTotp(bo(), clock, op);
  clock.advance(14 * 60_000);
  t.ok((await bo().getConsoleSession({ context: ctx(token) })).session, "alive at 14 minutes");
  clock.advance(14 * 60_000);
  t.ok((await bo().getConsoleSession({ context: ctx(token) })).session, "the last call moved the end");
  clock.advance(15 * 60_000 + 1000);
  const idle = await refusal(bo().getConsoleSession({ context: ctx(token) }));
  t.equal(idle.code, Code.Unauthenticated);
  t.equal(idle.consoleReason, ConsoleErrorReason.SESSION_ENDED);
});

t.test("a session ends 12 hours after its sign-in, however busy", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "uma", "viewer");
  const token = await signInTotp(bo(), clock, op);
  // A working day of calls, one every 14 minutes: each moves the idle end, none moves the 12 hours.
  let alive = 0;
  for (let minutes = 14; minutes < 12 * 60; minutes += 14) {
    clock.advance(14 * 60_000);
    if ((await refusal(bo().getConsoleSession({ context: ctx(token) }))).code === undefined) alive += 1;
  }
  t.equal(alive, Math.floor((12 * 60 - 1) / 14), "alive all day");
  clock.advance(14 * 60_000);
  t.equal((await refusal(bo().getConsoleSession({ context: ctx(token) }))).consoleReason, ConsoleErrorReason.SESSION_ENDED, "ended past 12 hours");
});

t.test("disable and reset (command and AdminService) end sessions; reset gives a new link", async (t) => {
  const op = await enrolOperator(svc(), bo(), clock, "dora", "support");
  const token = await signInTotp(bo(), clock, op);
  const reset = await runOperatorCommand(svc(), ["reset", "dora"]);
  t.equal(reset.code, 0, reset.stderr);
  t.match(reset.stdout, /enrol\/[A-Za-z0-9_-]{43}/);
  t.equal((await refusal(bo().getConsoleSession({ context: ctx(token) }))).consoleReason, ConsoleErrorReason.SESSION_ENDED);
  t.equal(
    (await refusal(bo().signIn({ context: ctx(), login: "dora", password: PASSWORD }))).consoleReason,
    ConsoleErrorReason.SIGN_IN_REFUSED,
    "no password after a reset",
  );

  const op2 = await enrolOperator(svc(), bo(), clock, "eve", "support");
  const t2 = await signInTotp(bo(), clock, op2);
  const disabled = await svc().admin.disableOperator({ login: "eve", operator: "lead" });
  t.equal(disabled.operator?.state, OperatorState.DISABLED);
  t.equal((await refusal(bo().getConsoleSession({ context: ctx(t2) }))).consoleReason, ConsoleErrorReason.SESSION_ENDED);
  const cli = await runOperatorCommand(svc(), ["disable", "nobody"]);
  t.equal(cli.code, 1);
  t.match(cli.stderr, /no operator with login "nobody"/);
  const bad = await runOperatorCommand(svc(), ["create", "x", "--role", "boss"]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /login: must be 3 to 64/);
  t.match(bad.stderr, /role: must be one of viewer, support, payouts, admin/);
});

t.test("AdminService refuses bad operator input naming the field, and duplicates", async (t) => {
  const r = await refusal(svc().admin.createOperator({ login: "Bad Login", role: OperatorRole.UNSPECIFIED, merchantIds: ["m-none"], operator: "lead" }));
  t.equal(r.code, Code.InvalidArgument);
  t.same(r.fields.sort(), ["login", "merchant_ids", "role"]);
  await svc().admin.createOperator({ login: "dupe", role: OperatorRole.VIEWER, merchantIds: [], operator: "lead" });
  const d = await refusal(svc().admin.createOperator({ login: "dupe", role: OperatorRole.VIEWER, merchantIds: [], operator: "lead" }));
  t.equal(d.code, Code.AlreadyExists);
  const noWho = await refusal(svc().admin.createOperator({ login: "who-not", role: OperatorRole.VIEWER, merchantIds: [], operator: "" }));
  t.same(noWho.fields, ["operator"]);
});
