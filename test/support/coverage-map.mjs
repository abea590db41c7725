// tap's coverage map (.taprc): whatever test file runs, coverage measures the
// service's own code, engine/ and edge/, in every process the test starts.
// Tests, their helpers and the generated gen/ are not measured.
export default () => ["engine/**/*.ts", "edge/**/*.ts"];
