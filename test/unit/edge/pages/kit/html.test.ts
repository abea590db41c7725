/**
 * The html tagged template escapes every interpolation, whatever its type,
 * and lets through only markup that is already an Html value.
 */
import t from "tap";
import { Html, escapeHtml, html, raw } from "../../../../../edge/pages/kit/html.ts";

t.test("strings are escaped in text and in attributes", async (t) => {
  const evil = `"><script>alert('x')</script>&`;
  const out = html`<p title="${evil}">${evil}</p>`.value;
  t.equal(
    out,
    `<p title="&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;">&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;</p>`,
  );
  t.notMatch(out, "<script");
  t.equal(escapeHtml(`<&>"'`), "&#60;&#38;&#62;&#34;&#39;");
});

t.test("numbers, bigints, lists, nested templates; null, undefined and false render nothing", async (t) => {
  const items = ["a<b", html`<b>${"c&d"}</b>`];
  t.equal(
    html`${1}|${2n}|${true}|${null}|${undefined}|${false}|<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`.value,
    "1|2|true||||<ul><li>a&#60;b</li><li><b>c&#38;d</b></li></ul>",
  );
});

t.test("only an Html value goes in as markup; an object that looks like one is text", async (t) => {
  t.equal(html`${raw("<br>")}`.value, "<br>");
  t.ok(html`x` instanceof Html);
  const lookalike = { value: "<br>", toString: () => "<br>" } as unknown as string;
  t.equal(html`${lookalike}`.value, "&#60;br&#62;", "a look-alike is escaped through its string form");
});
