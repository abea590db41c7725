/**
 * The start's early warning: which callback addresses name, by themselves, a
 * host the SSRF guard will refuse. Literals in every spelling the URL parser
 * accepts; names other than localhost are left to the guard (they are judged
 * after DNS, when called).
 */
import t from "tap";
import { namesPrivateHost } from "../../../../../engine/payments/callbacks/private-address.ts";

t.test("loopback, private, link-local, metadata and mapped literals, and localhost", async (t) => {
  for (const url of [
    "http://127.0.0.1:9000/x",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://localhost/x",
    "http://api.localhost/x",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
  ])
    t.equal(namesPrivateHost(url), true, url);
});

t.test("public addresses and names are not flagged", async (t) => {
  for (const url of ["http://8.8.8.8/", "https://platform.example/api", "http://[2001:4860::8888]/", "not a url"]) t.equal(namesPrivateHost(url), false, url);
});
