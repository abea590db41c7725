/**
 * How a platform's reply to a queued callback is judged, and when it is tried
 * again (CONTRACT section 6, README "Callbacks to the platform"): every kind
 * against every kind of reply, as a table, and the retry schedules.
 */
import { DEFAULT_RETRY_SECONDS, type RetryPolicy } from "../../../../../engine/shared/schedule-settings.ts";
import t from "tap";
import type { CallbackKind } from "../../../../../engine/shared/callbacks.ts";
import { judgeReply } from "../../../../../engine/payments/callbacks/reply-ack.ts";
import type { SendResult } from "../../../../../engine/payments/ports/callbacks.ts";

type Kind = Exclude<CallbackKind, "validation">;
const KINDS: Kind[] = ["notification", "update_payout", "record_failed_deposit"];

const POLICY: RetryPolicy = { retrySeconds: [10, 30, 60], rfdResendSeconds: 300, rfdMaxAttempts: 5 };

const reply = (httpStatus: number, body: string): SendResult => ({ httpStatus, body, error: "", refusedAddress: false, durationMs: 12 });
const noReply = (error: string): SendResult => ({ httpStatus: 0, body: "", error, refusedAddress: false, durationMs: 10000 });

type Expect = "delivered" | "refused" | "retry";
interface Row {
  name: string;
  r: SendResult;
  want: Record<Kind, Expect>;
  /** For a retry: what the reason must mention (for every kind, or per kind). */
  reason?: RegExp | Partial<Record<Kind, RegExp>>;
}

const all = (e: Expect): Record<Kind, Expect> => ({ notification: e, update_payout: e, record_failed_deposit: e });

const ROWS: Row[] = [
  // Delivered on status 0 (capital Status for RecordFailedDeposit).
  {
    name: "200 {status:0}",
    r: reply(200, '{"status":0}'),
    want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" },
    reason: /Status/,
  },
  {
    name: "200 {status:0,description}",
    r: reply(200, '{"status":0,"description":"ok"}'),
    want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" },
  },
  {
    name: "204 {status:0} (any 2xx)",
    r: reply(204, '{"status":0}'),
    want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" },
  },
  { name: "299 {status:0}", r: reply(299, '{"status":0}'), want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" } },
  {
    name: "200 {Status:0,Description}",
    r: reply(200, '{"Status":0,"Description":"ok"}'),
    want: { notification: "retry", update_payout: "retry", record_failed_deposit: "delivered" },
    reason: /status/,
  },
  { name: "200 both cases, status 0", r: reply(200, '{"status":0,"Status":0}'), want: all("delivered") },
  {
    name: "200 {status:0} with lower case only is not enough for RFD even with Status missing",
    r: reply(200, '{"status":0,"description":"ok","Description":"ok"}'),
    want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" },
  },
  {
    name: "200 {Status:-1,status:0}: RFD reads Status",
    r: reply(200, '{"Status":-1,"status":0}'),
    want: { notification: "delivered", update_payout: "delivered", record_failed_deposit: "retry" },
    reason: /-1/,
  },
  {
    name: "200 {Status:0,status:-1}",
    r: reply(200, '{"Status":0,"status":-1}'),
    want: { notification: "retry", update_payout: "retry", record_failed_deposit: "delivered" },
    reason: /-1/,
  },
  // A notification needs HTTP 2xx as well; the other two read the body, except after 5xx, 408 or 429,
  // whose body is a server's error page, not the platform's answer.
  {
    name: "500 {status:0}",
    r: reply(500, '{"status":0}'),
    want: { notification: "retry", update_payout: "retry", record_failed_deposit: "retry" },
    reason: /500/,
  },
  { name: "500 {status:500} (an error page's own status)", r: reply(500, '{"status":500,"Status":500}'), want: all("retry"), reason: /500/ },
  { name: "503 {Status:0}", r: reply(503, '{"status":0,"Status":0}'), want: all("retry"), reason: /503/ },
  { name: "429 {Status:0}", r: reply(429, '{"status":0,"Status":0}'), want: all("retry"), reason: /429/ },
  { name: "408 {Status:0}", r: reply(408, '{"status":0,"Status":0}'), want: all("retry"), reason: /408/ },
  {
    name: "404 {status:0,Status:0}",
    r: reply(404, '{"status":0,"Status":0}'),
    want: { notification: "retry", update_payout: "delivered", record_failed_deposit: "delivered" },
    reason: /404/,
  },
  {
    name: "199 {status:0}",
    r: reply(199, '{"status":0}'),
    want: { notification: "retry", update_payout: "delivered", record_failed_deposit: "retry" },
    reason: /199/,
  },
  {
    name: "300 {status:0}",
    r: reply(300, '{"status":0}'),
    want: { notification: "retry", update_payout: "delivered", record_failed_deposit: "retry" },
    reason: /300/,
  },
  // Positive: the platform's refusal for UpdatePayout/RFD, retried for a notification.
  {
    name: "200 {status:1}",
    r: reply(200, '{"status":1,"description":"no"}'),
    want: { notification: "retry", update_payout: "refused", record_failed_deposit: "retry" },
    reason: { notification: /status 1/, record_failed_deposit: /Status/ },
  },
  {
    name: "200 {status:7,Status:7}",
    r: reply(200, '{"status":7,"Status":7}'),
    want: { notification: "retry", update_payout: "refused", record_failed_deposit: "refused" },
    reason: /7/,
  },
  {
    name: "200 {Status:3}",
    r: reply(200, '{"Status":3,"Description":"unknown user"}'),
    want: { notification: "retry", update_payout: "retry", record_failed_deposit: "refused" },
  },
  // Negative: retried by all.
  { name: "200 {status:-1,Status:-1}", r: reply(200, '{"status":-1,"Status":-1}'), want: all("retry"), reason: /-1/ },
  { name: "200 {status:-2,Status:-2}", r: reply(200, '{"status":-2,"Status":-2,"description":"db down"}'), want: all("retry"), reason: /-2/ },
  { name: "500 {status:-1,Status:-1}", r: reply(500, '{"status":-1,"Status":-1}'), want: all("retry") },
  // Unusable bodies: retried with a reason.
  { name: "unparsable body", r: reply(200, "ok"), want: all("retry"), reason: /JSON object/ },
  { name: "empty body", r: reply(200, ""), want: all("retry"), reason: /JSON object/ },
  { name: "HTML body", r: reply(200, "<html>ok</html>"), want: all("retry"), reason: /JSON object/ },
  { name: "truncated JSON", r: reply(200, '{"status":0,"Status":0'), want: all("retry"), reason: /JSON object/ },
  { name: "JSON array", r: reply(200, '[{"status":0,"Status":0}]'), want: all("retry"), reason: /JSON object/ },
  { name: "JSON null", r: reply(200, "null"), want: all("retry"), reason: /JSON object/ },
  { name: "JSON number 0", r: reply(200, "0"), want: all("retry"), reason: /JSON object/ },
  { name: "JSON string", r: reply(200, '"ok"'), want: all("retry"), reason: /JSON object/ },
  { name: "a member twice", r: reply(200, '{"status":-1,"Status":-1,"status":0,"Status":0}'), want: all("retry"), reason: /naming status twice/ },
  {
    name: "a card number as the member named twice",
    r: reply(200, '{"4111111111111111":1,"4111111111111111":2,"status":0,"Status":0}'),
    want: all("retry"),
    reason: /naming 411111\*{6}1111 twice/,
  },
  { name: "empty object", r: reply(200, "{}"), want: all("retry"), reason: /integer/ },
  { name: "string status", r: reply(200, '{"status":"0","Status":"0"}'), want: all("retry"), reason: /integer/ },
  { name: "float status 0.5", r: reply(200, '{"status":0.5,"Status":0.5}'), want: all("retry"), reason: /integer/ },
  { name: "float status 1.5", r: reply(200, '{"status":1.5,"Status":1.5}'), want: all("retry"), reason: /integer/ },
  { name: "float status -0.5", r: reply(200, '{"status":-0.5,"Status":-0.5}'), want: all("retry"), reason: /integer/ },
  { name: "null status", r: reply(200, '{"status":null,"Status":null}'), want: all("retry"), reason: /integer/ },
  { name: "boolean status", r: reply(200, '{"status":false,"Status":false}'), want: all("retry"), reason: /integer/ },
  { name: "object status", r: reply(200, '{"status":{"code":0},"Status":{"code":0}}'), want: all("retry"), reason: /integer/ },
  { name: "status 1e400 (Infinity)", r: reply(200, '{"status":1e400,"Status":1e400}'), want: all("retry"), reason: /integer/ },
  // No reply at all.
  { name: "timeout", r: noReply("no reply within 10000 ms"), want: all("retry"), reason: /no reply within 10000 ms/ },
  { name: "connection refused", r: noReply("no reply: connect ECONNREFUSED 203.0.113.9:443"), want: all("retry"), reason: /ECONNREFUSED/ },
  {
    name: "redirect (the sender's error, body ignored)",
    r: { httpStatus: 302, body: '{"status":0,"Status":0}', error: "HTTP 302: redirects are not followed", refusedAddress: false, durationMs: 5 },
    want: all("retry"),
    reason: /redirect/,
  },
];

t.test("judgeReply: every kind against every reply (attempt 1)", async (t) => {
  for (const row of ROWS) {
    for (const kind of KINDS) {
      const v = judgeReply(kind, row.r, 1, POLICY);
      const want = row.want[kind];
      const label = `${kind} / ${row.name}`;
      if (want === "delivered") {
        t.same(v, { outcome: "delivered", state: "delivered", error: "", retryInSeconds: null }, `${label} -> delivered`);
      } else if (want === "refused") {
        t.equal(v.outcome, "refused", `${label} -> refused`);
        t.equal(v.state, "refused", `${label}: kept as refused`);
        t.equal(v.retryInSeconds, null, `${label}: not resent`);
        t.not(v.error, "", `${label}: the status is recorded`);
      } else {
        t.equal(v.outcome, "retry", `${label} -> retry`);
        t.equal(v.state, "pending", `${label}: stays pending`);
        const delay = kind === "record_failed_deposit" ? POLICY.rfdResendSeconds : POLICY.retrySeconds[0];
        t.equal(v.retryInSeconds, delay, `${label}: next try in ${delay} s`);
        t.not(v.error, "", `${label}: a reason`);
        const reason = row.reason instanceof RegExp ? row.reason : row.reason?.[kind];
        if (reason) t.match(v.error, reason, `${label}: reason names the cause`);
      }
    }
  }
});

t.test("judgeReply: a refused address fails at once, whatever the attempt", async (t) => {
  const refused: SendResult = { httpStatus: 0, body: "", error: "address refused: 10.0.0.1 is not allowed", refusedAddress: true, durationMs: 1 };
  for (const kind of KINDS) {
    for (const attempt of [1, 2, 5]) {
      t.same(
        judgeReply(kind, refused, attempt, POLICY),
        { outcome: "refused-address", state: "failed", error: "address refused: 10.0.0.1 is not allowed", retryInSeconds: null },
        `${kind} attempt ${attempt}`,
      );
    }
    // Even a body that would otherwise acknowledge does not count: nothing was sent.
    const odd: SendResult = { ...refused, httpStatus: 200, body: '{"status":0,"Status":0}' };
    t.equal(judgeReply(kind, odd, 1, POLICY).outcome, "refused-address", `${kind}: refusedAddress wins over a body`);
  }
});

t.test("judgeReply: notification and UpdatePayout follow retrySeconds, then fail", async (t) => {
  const bad = reply(503, '{"status":-1}');
  for (const kind of ["notification", "update_payout"] as const) {
    for (const [attempt, delay] of [
      [1, 10],
      [2, 30],
      [3, 60],
    ] as const) {
      const v = judgeReply(kind, bad, attempt, POLICY);
      t.equal(v.outcome, "retry", `${kind} attempt ${attempt} retries`);
      t.equal(v.retryInSeconds, delay, `${kind} attempt ${attempt} waits retrySeconds[${attempt - 1}] = ${delay}`);
    }
    for (const attempt of [4, 5, 100]) {
      const v = judgeReply(kind, bad, attempt, POLICY);
      t.same(
        { outcome: v.outcome, state: v.state, retryInSeconds: v.retryInSeconds },
        { outcome: "failed", state: "failed", retryInSeconds: null },
        `${kind} attempt ${attempt}: given up`,
      );
      t.not(v.error, "", `${kind} attempt ${attempt}: the last reason kept`);
    }
    // An empty schedule: the first failure is the last.
    t.equal(judgeReply(kind, bad, 1, { ...POLICY, retrySeconds: [] }).outcome, "failed", `${kind}: no schedule, no retry`);
    // Success and refusal on the last attempt still count as such.
    t.equal(judgeReply(kind, reply(200, '{"status":0}'), 4, POLICY).outcome, "delivered", `${kind}: delivered after the schedule`);
  }
  t.equal(judgeReply("update_payout", reply(200, '{"status":2}'), 4, POLICY).outcome, "refused", "UpdatePayout refused on a late attempt");
});

t.test("judgeReply: the default schedule attempt by attempt", async (t) => {
  const policy: RetryPolicy = { retrySeconds: DEFAULT_RETRY_SECONDS, rfdResendSeconds: 300, rfdMaxAttempts: 48 };
  // README: 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, then every 8 h (three times).
  const readme = [10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800, 28800];
  for (const kind of ["notification", "update_payout"] as const) {
    readme.forEach((delay, i) => {
      t.equal(judgeReply(kind, noReply("no reply within 10000 ms"), i + 1, policy).retryInSeconds, delay, `${kind} attempt ${i + 1} waits ${delay} s`);
    });
    t.equal(
      judgeReply(kind, noReply("no reply within 10000 ms"), readme.length + 1, policy).state,
      "failed",
      `${kind} attempt ${readme.length + 1} is the last`,
    );
  }
});

t.test("DEFAULT_RETRY_SECONDS: first retry within 30 s, growing, at least 24 h", async (t) => {
  t.ok(DEFAULT_RETRY_SECONDS.length > 0, "not empty");
  t.ok(DEFAULT_RETRY_SECONDS[0] <= 30, `first delay ${DEFAULT_RETRY_SECONDS[0]} <= 30`);
  t.ok(DEFAULT_RETRY_SECONDS[0] > 0, "first delay positive");
  for (let i = 1; i < DEFAULT_RETRY_SECONDS.length; i++) {
    t.ok(
      DEFAULT_RETRY_SECONDS[i] >= DEFAULT_RETRY_SECONDS[i - 1],
      `delay ${i + 1} (${DEFAULT_RETRY_SECONDS[i]}) >= delay ${i} (${DEFAULT_RETRY_SECONDS[i - 1]})`,
    );
  }
  const total = DEFAULT_RETRY_SECONDS.reduce((a, b) => a + b, 0);
  t.ok(total >= 24 * 3600, `total ${total} s >= 24 h`);
  // README: "about 32 h in all", and the settings table's default list.
  t.ok(total <= 33 * 3600, `total ${total} s is about 32 h`);
  t.same(DEFAULT_RETRY_SECONDS, [10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800, 28800], "the README's CASHIER_CALLBACK_RETRY_SECONDS default");
  for (const d of DEFAULT_RETRY_SECONDS) t.ok(Number.isInteger(d), `${d} is whole seconds`);
});

t.test("judgeReply: RecordFailedDeposit every rfdResendSeconds until rfdMaxAttempts", async (t) => {
  const unusable = reply(200, '{"Status":-1,"Description":"try later"}');
  for (let attempt = 1; attempt < POLICY.rfdMaxAttempts; attempt++) {
    const v = judgeReply("record_failed_deposit", unusable, attempt, POLICY);
    t.same(
      { outcome: v.outcome, state: v.state, retryInSeconds: v.retryInSeconds },
      { outcome: "retry", state: "pending", retryInSeconds: 300 },
      `attempt ${attempt} resent after 300 s`,
    );
  }
  const last = judgeReply("record_failed_deposit", unusable, POLICY.rfdMaxAttempts, POLICY);
  t.same(
    { outcome: last.outcome, state: last.state, retryInSeconds: last.retryInSeconds },
    { outcome: "failed", state: "failed", retryInSeconds: null },
    `attempt ${POLICY.rfdMaxAttempts} (rfdMaxAttempts) fails`,
  );
  t.match(last.error, /-1/, "the last reason is kept");
  // The growing schedule plays no part.
  t.equal(judgeReply("record_failed_deposit", unusable, 2, { ...POLICY, retrySeconds: [] }).retryInSeconds, 300, "retrySeconds ignored");
  // The defaults: 48 sends, 300 s apart.
  const defaults: RetryPolicy = { retrySeconds: DEFAULT_RETRY_SECONDS, rfdResendSeconds: 300, rfdMaxAttempts: 48 };
  t.equal(judgeReply("record_failed_deposit", noReply("no reply within 10000 ms"), 47, defaults).retryInSeconds, 300, "attempt 47 of 48 resent");
  t.equal(judgeReply("record_failed_deposit", noReply("no reply within 10000 ms"), 48, defaults).state, "failed", "attempt 48 of 48 failed");
  // Other settings.
  const custom: RetryPolicy = { retrySeconds: [1], rfdResendSeconds: 7, rfdMaxAttempts: 2 };
  t.equal(judgeReply("record_failed_deposit", reply(200, "nope"), 1, custom).retryInSeconds, 7, "rfdResendSeconds 7");
  t.equal(judgeReply("record_failed_deposit", reply(200, "nope"), 2, custom).state, "failed", "rfdMaxAttempts 2");
  t.equal(judgeReply("record_failed_deposit", reply(200, "nope"), 1, { ...custom, rfdMaxAttempts: 1 }).state, "failed", "rfdMaxAttempts 1: one send only");
  // Ending replies on the last attempt are not turned into failures.
  t.equal(judgeReply("record_failed_deposit", reply(200, '{"Status":0}'), POLICY.rfdMaxAttempts, POLICY).outcome, "delivered", "delivered on the last attempt");
  t.equal(judgeReply("record_failed_deposit", reply(200, '{"Status":4}'), POLICY.rfdMaxAttempts, POLICY).outcome, "refused", "refused on the last attempt");
});
