/**
 * The engine's Prometheus endpoint is the shared one (engine/shared/runtime/metrics-server.ts),
 * which the edge serves its own metrics with too. Re-exported here for engine/engine.ts until it
 * imports the shared module itself; then this file goes.
 */
export { type MetricsServer, startMetricsServer } from "../shared/runtime/metrics-server.ts";
