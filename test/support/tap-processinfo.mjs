// Loaded first in every process of a test run (.taprc's test-env NODE_OPTIONS,
// whose --import runs before the command line's): tap's processinfo hook,
// loaded next, records every module a process loads and looks up its source
// map, node_modules' thousands included, about 0.2 s of CPU in a process that
// loads the engine. Coverage never reads node_modules, so the hook is told to
// skip it, with the variable it reads at load (its default list plus
// node_modules). Child processes and worker threads inherit it.
// docs/decisions/0008-fast-test-tier.md
process.env._TAPJS_PROCESSINFO_EXCLUDE_ = String(/(^(node|tapmock):|[\\/](\.tap|tap-snapshots|node_modules)[\\/])/);
