/**
 * The audit log's address of a direct gRPC caller: grpc-js's peer text
 * (`<remoteAddress>:<remotePort>`) without the port, for IPv4 and IPv6 alike.
 */
import t from "tap";
import { clientAddressOf } from "../../../../engine/rpc/peer-address.ts";

t.test("the host without its port", async (t) => {
  const cases: [string | undefined, string][] = [
    ["127.0.0.1:50312", "127.0.0.1"],
    ["::1:50312", "::1"],
    ["::1:443", "::1"],
    ["[2001:db8::7]:8443", "2001:db8::7"],
    ["::ffff:198.51.100.7:443", "::ffff:198.51.100.7"],
    ["ipv4:10.0.0.1:1", "10.0.0.1"],
    ["198.51.100.7", "198.51.100.7"],
    ["::1", "::1"],
    ["unix:/run/engine.sock", "unix:/run/engine.sock"],
    [undefined, ""],
  ];
  for (const [peer, address] of cases) t.equal(clientAddressOf({ peer }), address, String(peer));
  t.equal(clientAddressOf(undefined), "");
});
