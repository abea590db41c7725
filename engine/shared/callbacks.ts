/**
 * The callbacks' vocabulary (CONTRACT section 6): their kinds, the states of a
 * callback and the outcomes of one attempt to deliver it. Shared, as the
 * transaction vocabulary is, because the tables store these words: the
 * entities name them, and the payments domain's rules decide between them.
 */
export type CallbackKind = "validation" | "notification" | "update_payout" | "record_failed_deposit";
export type CallbackState = "pending" | "delivered" | "refused" | "failed";
export type AttemptOutcome = "delivered" | "refused" | "retry" | "failed" | "refused-address";
