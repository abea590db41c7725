/**
 * The pages' assets: URLs named by a hash of the content, served by the edge
 * with immutable caching; an unknown or outdated name is a plain 404.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa from "koa";
import t from "tap";
import { ASSETS, IMMUTABLE, assetRoutes, hashedName } from "../../../../../edge/pages/kit/assets.ts";

t.test("the name follows the content", async (t) => {
  const a = hashedName("cashier", "css", Buffer.from("body{}"));
  t.match(a, /^cashier\.[0-9a-f]{16}\.css$/);
  t.equal(hashedName("cashier", "css", Buffer.from("body{}")), a, "same content, same name");
  t.not(hashedName("cashier", "css", Buffer.from("body{ }")), a, "changed content, new name");
  const css = readFileSync(new URL("../../../../../edge/pages/kit/assets/cashier.css", import.meta.url));
  t.equal(ASSETS.css.url, `/assets/${hashedName("cashier", "css", css)}`);
});

t.test("served with immutable caching; unknown names are 404", async (t) => {
  const app = new Koa();
  const router = new Router();
  assetRoutes(router);
  app.use(router.routes());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const asset of [ASSETS.css, ASSETS.js]) {
    const res = await fetch(base + asset.url);
    t.equal(res.status, 200);
    t.equal(res.headers.get("cache-control"), IMMUTABLE);
    t.equal(res.headers.get("content-type"), asset.type);
    t.equal(res.headers.get("x-content-type-options"), "nosniff");
    t.same(Buffer.from(await res.arrayBuffer()), asset.body);
  }
  for (const path of ["/assets/cashier.0000000000000000.css", "/assets/cashier.css", "/assets/..%2F..%2Fpackage.json"]) {
    const res = await fetch(base + path);
    t.equal(res.status, 404, path);
    t.equal(res.headers.get("cache-control"), "no-store");
    await res.arrayBuffer();
  }
});
