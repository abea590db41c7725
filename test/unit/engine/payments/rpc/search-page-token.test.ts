/**
 * The search's page tokens (ListTransactions): a position goes out and comes
 * back exactly (the order's time to the microsecond, its id, the attempt),
 * a token is the next page's only when more matched or the bounded read
 * stopped short, and anything but a token the service issued for the same
 * filters is refused naming page_token; a page_size above 500 is taken as
 * 500, a negative one refused.
 */
import t from "tap";
import type { SearchKey } from "../../../../../engine/payments/ports/orders.ts";
import { filterDigest, readSearchPage, searchPageOf } from "../../../../../engine/payments/rpc/page-token.ts";

const key = (orderRef: number, attempt = 1): SearchKey => ({ orderCreatedAt: "2026-11-25T18:00:00.123456Z", orderRef, attempt });
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ item: i, key: key(100 - i) }));
const token = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const F = filterDigest("merchant_id=m-demo");

t.test("a page's token resumes after its last row, exactly", async (t) => {
  const page = searchPageOf(rows(3), 2, undefined, F);
  t.same(page.items, [0, 1], "the page is cut to its size");
  t.same(readSearchPage({ pageSize: 2, pageToken: page.nextPageToken }, F).after, key(99), "the token holds the last row shown");
});

t.test("the last page has no token, unless the read stopped short of the end", async (t) => {
  t.equal(searchPageOf(rows(2), 2, undefined, F).nextPageToken, "", "all matches shown, nothing left unread");
  const short = searchPageOf([], 50, { ...key(7), attempt: 0 }, F);
  t.same(short.items, [], "nothing matched in this call's read");
  t.same(readSearchPage({ pageSize: 0, pageToken: short.nextPageToken }, F).after, { ...key(7), attempt: 0 }, "the next call starts after the last order read");
});

t.test("sizes and tokens the service did not issue are refused naming the field", async (t) => {
  t.same(readSearchPage({ pageSize: 0, pageToken: "" }, F), { read: 51, limit: 50, after: undefined }, "default size, read one more");
  t.same(readSearchPage({ pageSize: 100_000, pageToken: "" }, F), { read: 501, limit: 500, after: undefined }, "above 500: 500");
  const refused = (pageSize: number, pageToken: string, filters = F) => {
    try {
      readSearchPage({ pageSize, pageToken }, filters);
      return "";
    } catch (err) {
      return String((err as Error).message);
    }
  };
  t.equal(refused(501, ""), "", "501 is no error: it reads 500");
  t.match(refused(-1, ""), "page_size");
  const issued = searchPageOf(rows(3), 2, undefined, F).nextPageToken;
  t.equal(refused(2, issued), "", "the token is good for its own filters");
  t.match(refused(2, issued, filterDigest("merchant_id=m-other")), /page_token: was issued for other filters/, "and for no others");
  for (const bad of [
    "not-a-token",
    token({ v: 2, s: "2026-11-25T18:00:00.123456Z", o: 1, a: 1 }),
    token({ v: 1, s: "2026-11-25T18:00:00Z", o: 1, a: 1 }),
    token({ v: 1, s: "2026-13-45T99:00:00.123456Z", o: 1, a: 1 }),
    token({ v: 1, s: "2026-11-25T18:00:00.123456Z", o: 0, a: 1 }),
    token({ v: 1, s: "2026-11-25T18:00:00.123456Z", o: 1, a: -1 }),
    token({ v: 1, s: "2026-11-25T18:00:00.123456Z", o: 1.5, a: 1 }),
    token({ v: 1, t: 42 }),
    token({ v: 1, s: "2026-11-25T18:00:00.123456Z", o: 1, a: 1 }),
  ]) {
    t.match(refused(10, bad), "page_token", `refused: ${Buffer.from(bad, "base64url").toString("utf8").slice(0, 60)}`);
  }
});
