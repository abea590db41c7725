/**
 * What another module's handlers may share of the payments handlers: the
 * transaction and callback mappers to proto, the transaction search, and the
 * opaque page tokens, so that every service renders them alike.
 */
export { callbackToProto, kindFromProto, kindToProto, stateFromProto } from "./callback-mappers.ts";
export { listTransactions } from "./list-transactions.ts";
export { boundedPageOf, pageLimit, pageOf, readPage } from "./page-token.ts";
export { attemptToProto, customerFromProto, statusToProto, typeToProto } from "./proto-mappers.ts";
