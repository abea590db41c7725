/**
 * Card numbers where no card number belongs (CONTRACT section 8): a platform
 * that puts one into an identifier it gets back as sent (Process's order_id,
 * pin, email, return_url, notification_url, reference_id; the session
 * start's pin, email, URLs, order_id, sc_order_id, udef1, udef2) is refused,
 * 400 with status 2 naming the member (and over gRPC INVALID_ARGUMENT naming
 * the field), whatever way the number is written: plain, in groups of four
 * split by spaces or dashes, or inside the identifier. Numbers that are no
 * card's (a 19-digit id, a 16-digit run failing Luhn) pass. Then the
 * database's every text column, the logs and every callback the platform got
 * are scanned: none holds any of the numbers, in any of their forms.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { saleRequest } from "../support/engine-request.ts";
import { useService } from "../support/service.ts";
import { MERCHANTS } from "../support/merchants.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { PLATFORM_SECRETS, platformMerchants } from "../support/platform-merchants.ts";
import { orderId, processSale } from "../support/wire.ts";
import { postSession, sessionBody, withdrawalBody } from "../support/cashier-session.ts";
import { until } from "../support/until.ts";

/** Brands the scanners know, each a test number no other test here uses. */
const CARDS = ["4242424242424242", "5105105105105100", "378282246310005", "6011000990139424"];
/** How a number may be written into an identifier. */
const forms = (card: string): string[] => [card, card.replace(/(\d{4})(?=\d)/g, "$1 "), card.replace(/(\d{4})(?=\d)/g, "$1-"), `cust-${card}`];

let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
});
t.teardown(() => stub.close());
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: { merchants: [...MERCHANTS.merchants, ...platformMerchants(stub.url).merchants] },
}));
const plat = () => ({ merchant_id: "m-plat", frontend: "plat-usd", notification_url: `${stub.url}/notify` });

/** Every card number found in `text`, written in any of the forms, or with its separators (spaces, dashes, dots, %20) taken out. */
function leaks(text: string): string[] {
  const bare = text.replace(/%20|[ .+-]/g, "");
  return CARDS.filter((c) => bare.includes(c) || forms(c).some((f) => text.includes(f)));
}

const replies: string[] = [];

/** A card number's form put into `member` of a Process request: the member, with a value ending as its rules allow. */
function processMember(member: string, written: string): Record<string, unknown> {
  if (member === "email") return { email: `${written.replace(/ /g, ".")}@example.com` };
  if (member === "return_url") return { return_url: `https://merchant.example/return?ref=${encodeURIComponent(written)}` };
  if (member === "notification_url") return { notification_url: `${stub.url}/notify/${encodeURIComponent(written)}` };
  if (member === "reference_id") return { transaction_type: "refund", reference_id: written, amount: 100 };
  return { [member]: written };
}

t.test("Process refuses a card number in an identifier, naming the member", async (t) => {
  for (const member of ["order_id", "pin", "email", "return_url", "notification_url", "reference_id"]) {
    for (const card of CARDS) {
      for (const written of forms(card)) {
        const r = await processSale(service().edgeUrl, { ...plat(), order_id: orderId("id"), ...processMember(member, written) });
        replies.push(r.text);
        t.equal(r.http, 400, `${member} = ${JSON.stringify(written)}: 400`);
        t.equal(r.body.status, 2, "status 2: a field the platform got wrong");
        t.match(r.body.description, new RegExp(`(^|; )${member}: must not hold a card number`), `names ${member}`);
      }
    }
  }
});

t.test("numbers that are no card's pass", async (t) => {
  for (const over of [
    { pin: "1541815603606036480" }, // a 19-digit snowflake id: no brand begins with 1
    { pin: "cust-4242424242424241" }, // 16 digits of a brand, failing Luhn
    { order_id: `${orderId("n")}-20301231` },
    { order_id: "9876543210987654321012" }, // 22 digits together: a reference, not a card
  ]) {
    const r = await processSale(service().edgeUrl, { ...plat(), order_id: orderId("ok"), ...over, card_number: "4111111111111111" });
    t.equal(r.http, 200, `${JSON.stringify(over)}: ${r.body.description}`);
  }
});

t.test("over gRPC: INVALID_ARGUMENT naming the field", async (t) => {
  for (const [field, req] of [
    ["order_id", saleRequest({ orderId: `ord ${CARDS[0]}` })],
    ["customer.pin", saleRequest({ orderId: orderId("g"), customer: { pin: CARDS[1], email: "a@example.com", firstName: "A", lastName: "B", country: "GB" } })],
  ] as const) {
    const err = await service()
      .client.process(req as never)
      .then(() => undefined)
      .catch((e: unknown) => ConnectError.from(e));
    t.equal(err?.code, Code.InvalidArgument, field);
    const fields = err?.findDetails(ErrorDetailSchema).flatMap((d) => d.violations.map((v) => v.field));
    t.ok(fields?.includes(field), `names ${field} (${fields?.join(", ")})`);
    t.same(leaks(err?.rawMessage ?? ""), [], "the message does not echo it");
  }
});

t.test("the hosted Cashier's session start refuses one in each member it keeps or echoes", async (t) => {
  const rows: [string, Record<string, unknown>, (written: string) => Record<string, unknown>][] = [
    ["pin", {}, (w) => ({ pin: w })],
    ["email", {}, (w) => ({ email: `${w.replace(/ /g, ".")}@example.com` })],
    ["return_url", {}, (w) => ({ return_url: `https://merchant.example/back/${encodeURIComponent(w)}` })],
    ["notification_url", {}, (w) => ({ notification_url: `https://merchant.example/notify?c=${encodeURIComponent(w)}` })],
    ["sc_order_id", {}, (w) => ({ sc_order_id: w })],
    ["udef1", {}, (w) => ({ udef1: w })],
    ["udef2", {}, (w) => ({ udef2: w })],
    ["order_id", { withdrawal: true }, (w) => ({ order_id: w })],
  ];
  // Each member with each way of writing, the cards taken in turn: the session start's limit (120 a minute per address) holds.
  for (const [m, [member, kind, over]] of rows.entries()) {
    for (let f = 0; f < 4; f++) {
      const written = forms(CARDS[(m + f) % CARDS.length])[f];
      const body = kind.withdrawal ? withdrawalBody(over(written)) : sessionBody(over(written));
      const r = await postSession(service().edgeUrl, body);
      replies.push(r.text);
      t.equal(r.http, 400, `${member} = ${JSON.stringify(written)}: 400`);
      t.equal(r.body.status, 2);
      t.match(r.body.description, new RegExp(`(^|; )${member}: must not hold a card number`), `names ${member}`);
    }
  }
  const fine = await postSession(service().edgeUrl, sessionBody({ sc_order_id: "sc-1541815603606036480", udef1: "2030-12-31" }));
  t.equal(fine.http, 200, `ids that are no card's pass: ${fine.body.description}`);
});

t.test("nothing kept, logged, answered or sent holds one of the numbers", async (t) => {
  // The accepted sales' callbacks have gone out (the refused ones owe none).
  const quiet = await until(async () => {
    const [{ n }] = await service().sql<{ n: number }>("select count(*)::int as n from callback where state = 'pending'");
    return n === 0;
  }, 30_000);
  t.ok(quiet, "every callback was answered");
  t.ok(stub.received().length > 0, "the platform got callbacks");
  for (const c of stub.received()) t.same(leaks(JSON.stringify(c)), [], `${c.kind} callback`);
  for (const text of replies) t.same(leaks(text), [], text.slice(0, 100));
  t.same(leaks(service().logs()), [], "the logs");
  const columns = await service().sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`,
  );
  let scanned = 0;
  for (const { table_name, column_name } of columns) {
    const rows = await service().sql<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
    scanned += rows.length;
    t.same(
      rows.flatMap((r) => leaks(r.v)),
      [],
      `${table_name}.${column_name}`,
    );
  }
  t.ok(scanned > 20, `${scanned} values scanned`);
});
