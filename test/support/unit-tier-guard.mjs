// The unit tier has no network and no Postgres (`npm run test:unit`, CASHIER_TEST_TIER=unit):
// loaded into every process of that run (tap-processinfo.mjs imports it), it makes a file that
// listens on a port or opens a connection fail, saying which tier it belongs to, instead of
// quietly making the inner loop slow or dependent on a service. test-database.ts refuses Postgres.
import net from "node:net";

const refuse = (what) => {
  throw new Error(`${what} in a unit test: the unit tier has no network (CASHIER_TEST_TIER=unit); this file belongs in test/e2e/`);
};
net.Server.prototype.listen = function listen() {
  refuse("listening on a port");
};
net.Socket.prototype.connect = function connect() {
  refuse("a network connection");
};
