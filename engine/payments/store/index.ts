/**
 * What another module's store may share of the payments store: reading an
 * attempt's row and a customer's record, so that a hosted session's
 * transactions are read as Process reads them.
 */
export { selectAttempts } from "./attempt-select.ts";
export { customerFromRecord, customerRecord } from "./customer-record.ts";
export { attemptFromRow } from "./mappers.ts";
export { storedFields } from "./risk-rules-store.ts";
