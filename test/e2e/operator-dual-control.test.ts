/**
 * Dual control of payout rights (issue 32): one admin alone can no longer
 * make the accounts that give both approvals of a four-eyes payout. Creating
 * an operator with the payouts or admin role, giving such a role (or more
 * merchants with it), and resetting an account that holds one are proposed
 * by one admin and applied only when a second makes the same change; until
 * then the proposed account's link does not work and the old role and
 * credentials stay. The proposer, the operator concerned, whoever set up its
 * access, and an account the proposer set up (or that set the proposer's up)
 * cannot confirm. Narrowing and disabling apply at once; disabling withdraws
 * a proposal. The operator command makes the first admin at once (the
 * bootstrap), and then proposes like an admin.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { ConsoleErrorReason } from "../../gen/cashier/admin/v1/console_pb.js";
import { OperatorRole, OperatorState, PendingChangeKind } from "../../gen/cashier/admin/v1/operator_pb.js";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { backofficeClient, ctx, enrolOperator, enrolWithLink, type EnrolledOperator, runOperatorCommand, signInTotp } from "../support/operators.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

const create = (who: EnrolledOperator, login: string, role: OperatorRole, merchantIds: string[] = []) =>
  bo().createOperator({ context: ctx(who.sessionToken), create: { login, role, merchantIds } });
const operator = async (who: EnrolledOperator, login: string) =>
  (await bo().listOperators({ context: ctx(who.sessionToken) })).operators.find((o) => o.login === login);

let lead: EnrolledOperator;
let vera: EnrolledOperator;
t.before(async () => {
  // Two admins made by a service token (AdminService is trusted as a database superuser is: no dual control).
  lead = await enrolOperator(svc(), bo(), clock, "lead", "admin");
  vera = await enrolOperator(svc(), bo(), clock, "vera", "admin");
});

t.test("one admin alone makes no account with payout rights: it is proposed, and its link works only once another confirms", async (t) => {
  const first = await create(lead, "pay.one", OperatorRole.PAYOUTS, ["m-test"]);
  t.equal(first.operator?.state, OperatorState.PROPOSED);
  t.equal(first.operator?.pendingChange?.kind, PendingChangeKind.CREATE);
  t.equal(first.operator?.pendingChange?.proposedBy, "lead");
  const token = first.enrolment?.token ?? "";
  t.match(token, /^[A-Za-z0-9_-]{43}$/, "the proposer holds the link");
  t.equal((await refusal(bo().getEnrolment({ context: ctx(), token }))).consoleReason, ConsoleErrorReason.ENROLMENT_INVALID, "which does not work yet");

  const again = await refusal(create(lead, "pay.one", OperatorRole.PAYOUTS, ["m-test"]));
  t.equal(again.code, Code.FailedPrecondition, "the proposer cannot confirm it");
  t.equal(again.consoleReason, ConsoleErrorReason.DUAL_CONTROL_SAME_ADMIN);
  t.match(again.message, /lead proposed this change of pay\.one: another admin confirms it \(dual control\)/);
  // Nor through an admin account of their own making: that one is proposed too, and waits the same way.
  const puppet = await create(lead, "puppet", OperatorRole.ADMIN);
  t.equal(puppet.operator?.state, OperatorState.PROPOSED);
  t.equal((await refusal(bo().getEnrolment({ context: ctx(), token: puppet.enrolment?.token ?? "" }))).consoleReason, ConsoleErrorReason.ENROLMENT_INVALID);
  const other = await refusal(create(vera, "pay.one", OperatorRole.ADMIN, []));
  t.equal(other.code, Code.AlreadyExists, "another change under the login is not a confirmation");

  const confirmed = await create(vera, "pay.one", OperatorRole.PAYOUTS, ["m-test"]);
  t.equal(confirmed.operator?.state, OperatorState.ENROLLING, "a second admin's same change confirms it");
  t.equal(confirmed.enrolment, undefined, "the confirmer gets no link: the proposer holds it");
  t.equal(confirmed.operator?.pendingChange, undefined);
  const one = await enrolWithLink(bo(), clock, "pay.one", token);
  t.ok(one.sessionToken, "the proposer's link now enrols");
  const rows = await svc().sql<{ action: string; actor: string; outcome: string; detail: string }>(
    "select action, actor, outcome, detail from audit_log where target = 'operator:pay.one' and action like 'operator.%' order by id",
  );
  const successes = rows.filter((r) => r.outcome === "success");
  t.same(
    successes.map((r) => [r.action, r.actor]),
    [
      ["operator.propose", "lead"],
      ["operator.create", "vera"],
    ],
    "the proposal and its confirmation are audited",
  );
  t.match(successes[0].detail, /proposed: applied once a second admin makes the same change/);
  t.match(successes[1].detail, /^confirms the change proposed by lead at \S+ \(dual control\)$/);
  t.ok(
    rows.some((r) => r.outcome === "failure" && r.actor === "lead" && /lead proposed this change/.test(r.detail)),
    "the refused confirmation is audited as a failure",
  );
  const [issuer] = await svc().sql<{ access_issued_by: string }>("select access_issued_by from operator where login = 'pay.one'");
  t.equal(issuer.access_issued_by, "lead", "its access is the proposer's issue (who holds the link): four eyes counts them as one");
});

t.test("giving payout rights to an operator, or more merchants with them, waits for a second admin; narrowing does not", async (t) => {
  const sam = await enrolOperator(svc(), bo(), clock, "sam", "support", ["m-test"]);
  const proposed = await bo().updateOperator({ context: ctx(lead.sessionToken), login: "sam", role: OperatorRole.PAYOUTS, merchantIds: ["m-test"] });
  t.equal(proposed.operator?.role, OperatorRole.SUPPORT, "nothing applies yet");
  t.equal(proposed.operator?.pendingChange?.kind, PendingChangeKind.UPDATE);
  t.equal(proposed.operator?.pendingChange?.role, OperatorRole.PAYOUTS);
  const samSession = await signInTotp(bo(), clock, sam);
  t.ok(samSession, "sam works on as support meanwhile");
  t.equal(
    (await refusal(bo().updateOperator({ context: ctx(lead.sessionToken), login: "sam", role: OperatorRole.PAYOUTS, merchantIds: ["m-test"] }))).consoleReason,
    ConsoleErrorReason.DUAL_CONTROL_SAME_ADMIN,
  );
  const applied = await bo().updateOperator({ context: ctx(vera.sessionToken), login: "sam", role: OperatorRole.PAYOUTS, merchantIds: ["m-test"] });
  t.equal(applied.operator?.role, OperatorRole.PAYOUTS, "confirmed by the same change from another admin");
  t.equal(applied.operator?.pendingChange, undefined);

  const wider = await bo().updateOperator({ context: ctx(lead.sessionToken), login: "sam", role: OperatorRole.PAYOUTS, merchantIds: [] });
  t.same(wider.operator?.merchantIds, ["m-test"], "every merchant is more payout rights: proposed");
  t.ok(wider.operator?.pendingChange);
  const narrower = await bo().updateOperator({ context: ctx(lead.sessionToken), login: "sam", role: OperatorRole.VIEWER, merchantIds: ["m-test"] });
  t.equal(narrower.operator?.role, OperatorRole.VIEWER, "taking rights away applies at once");
  t.equal(narrower.operator?.pendingChange, undefined, "and ends the proposal");
});

t.test("resetting an account that holds payout rights waits for a second admin; its creator cannot confirm", async (t) => {
  const made = await create(lead, "pay.two", OperatorRole.PAYOUTS);
  await create(vera, "pay.two", OperatorRole.PAYOUTS);
  const two = await enrolWithLink(bo(), clock, "pay.two", made.enrolment?.token ?? "");
  const proposed = await bo().resetOperator({ context: ctx(vera.sessionToken), login: "pay.two" });
  t.equal(proposed.operator?.state, OperatorState.ACTIVE, "the account goes on until the reset is confirmed");
  t.equal(proposed.operator?.pendingChange?.kind, PendingChangeKind.RESET);
  const link = proposed.enrolment?.token ?? "";
  t.equal((await refusal(bo().getEnrolment({ context: ctx(), token: link }))).consoleReason, ConsoleErrorReason.ENROLMENT_INVALID, "its new link waits");
  const byCreator = await refusal(bo().resetOperator({ context: ctx(lead.sessionToken), login: "pay.two" }));
  t.equal(byCreator.consoleReason, ConsoleErrorReason.DUAL_CONTROL_SAME_ADMIN, "lead created pay.two: not the second pair of eyes on its reset");
  t.match(byCreator.message, /lead set up the access of pay\.two/);
  t.ok(await signInTotp(bo(), clock, two), "still the old credentials");

  const dana = await enrolOperator(svc(), bo(), clock, "dana", "admin");
  const done = await bo().resetOperator({ context: ctx(dana.sessionToken), login: "pay.two" });
  t.equal(done.operator?.state, OperatorState.ENROLLING, "confirmed by a third admin");
  t.equal(done.enrolment, undefined);
  t.ok((await enrolWithLink(bo(), clock, "pay.two", link)).sessionToken, "the proposer's link enrols");
  const [issuer] = await svc().sql<{ access_issued_by: string }>("select access_issued_by from operator where login = 'pay.two'");
  t.equal(issuer.access_issued_by, "vera");
});

t.test("disabling withdraws a proposal; a viewer or support account is made at once", async (t) => {
  await create(lead, "pay.three", OperatorRole.PAYOUTS);
  const gone = await bo().disableOperator({ context: ctx(vera.sessionToken), login: "pay.three" });
  t.equal(gone.operator?.state, OperatorState.DISABLED);
  t.equal(gone.operator?.pendingChange, undefined);
  const viewer = await create(lead, "look", OperatorRole.VIEWER);
  t.equal(viewer.operator?.state, OperatorState.ENROLLING, "no payout rights: no second admin needed");
});

t.test("the operator command: once an admin exists it proposes, and an admin's same change in the console confirms", async (t) => {
  const out = await runOperatorCommand(svc(), ["create", "cli.pay", "--role", "payouts"]);
  t.equal(out.code, 0, out.stderr);
  t.match(out.stdout, /operator cli\.pay: payouts, proposed/);
  t.match(out.stdout, /proposed: an admin applies it by making the same change in the console/);
  const token = /\/enrol\/([A-Za-z0-9_-]{43})/.exec(out.stdout)?.[1] ?? "";
  t.equal((await refusal(bo().getEnrolment({ context: ctx(), token }))).consoleReason, ConsoleErrorReason.ENROLMENT_INVALID);
  const list = await runOperatorCommand(svc(), ["list"]);
  t.match(list.stdout, /cli\.pay\tpayouts\tproposed\t\(all merchants\)\t\(create to payouts proposed by cli:/);
  await create(vera, "cli.pay", OperatorRole.PAYOUTS);
  t.equal((await operator(vera, "cli.pay"))?.state, OperatorState.ENROLLING, "confirmed in the console");
  t.ok((await enrolWithLink(bo(), clock, "cli.pay", token)).sessionToken, "the printed link enrols");
});
