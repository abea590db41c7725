// Loaded first in every process of a test run (.taprc's test-env NODE_OPTIONS,
// whose --import runs before the command line's): tap's processinfo hook,
// loaded next, records every module a process loads and looks up its source
// map, node_modules' thousands included, about 0.2 s of CPU in a process that
// loads the engine. Coverage never reads node_modules, so the hook is told to
// skip it, through the variable it reads at load: the runner's list with
// node_modules added. Child processes and worker threads inherit it. (.taprc
// sets NODE_OPTIONS for the run: one of a developer's own is not kept.)
// docs/decisions/0008-fast-test-tier.md
// The runner's own list, as a /source/flags string, with node_modules added to its alternatives.
const given = process.env._TAPJS_PROCESSINFO_EXCLUDE_ ?? "";
const parsed = /^\/(.*)\/([a-z]*)$/.exec(given);
// A child of a test process inherits the list already extended: it is left as it is.
if (!given.includes("node_modules"))
  process.env._TAPJS_PROCESSINFO_EXCLUDE_ = parsed
    ? String(new RegExp(`(${parsed[1]})|[\\\\/]node_modules[\\\\/]`, parsed[2]))
    : String(/(^(node|tapmock):|[\\/](\.tap|tap-snapshots|node_modules)[\\/])/);
// The unit tier's guard: no listening, no connection (test/support/unit-tier-guard.mjs).
if (process.env.CASHIER_TEST_TIER === "unit") await import("./unit-tier-guard.mjs");
