/** Unicode's control characters (Cc): C0, DEL and C1, whose U+009B a terminal reads as an escape (CSI). No text member of a request may hold one. */
export const CONTROL_CHARACTERS = /\p{Cc}/u;
/** The same class, for replacing every one of them (a test with it would carry state from call to call). */
export const EVERY_CONTROL_CHARACTER = /\p{Cc}/gu;
