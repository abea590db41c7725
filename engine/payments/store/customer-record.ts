/**
 * The customer as the database keeps it: one JSON object with the wire's
 * snake_case member names, in an order's `customer` (without the pin, which
 * has its own column) and in a hosted session's (with it). One mapping both
 * ways, so the order store and the session store cannot drift apart.
 */
import { maskCardNumbers } from "../../shared/card.ts";
import type { CustomerInput } from "../../shared/transaction.ts";

export type CustomerRecord = Record<string, string>;

/**
 * The stored object of a customer; `withPin` for a session, whose pin is not a column of its own. The free-text
 * members (names, address, city) are kept with every card number in them masked (CONTRACT 8: a full number is kept
 * only sealed), as a platform may put anything there. The members with a shape of their own (e-mail, phone, zip,
 * dob, pin) are kept as sent: a phone or an id of 12 to 19 digits passes the Luhn check one time in ten.
 */
export function customerRecord(c: CustomerInput, withPin = false): CustomerRecord {
  return {
    ...(withPin ? { pin: c.pin } : {}),
    email: c.email,
    first_name: maskCardNumbers(c.firstName),
    last_name: maskCardNumbers(c.lastName),
    dob: c.dob,
    phone: c.phone,
    address: maskCardNumbers(c.address),
    city: maskCardNumbers(c.city),
    country: c.country,
    state: c.state,
    zip: c.zip,
    requester_ip: c.requesterIp,
  };
}

/** A stored object read back; a member it lacks is empty. */
export function customerFromRecord(r: CustomerRecord): CustomerInput {
  const v = (k: string) => r[k] ?? "";
  return {
    pin: v("pin"),
    email: v("email"),
    firstName: v("first_name"),
    lastName: v("last_name"),
    dob: v("dob"),
    phone: v("phone"),
    address: v("address"),
    city: v("city"),
    country: v("country"),
    state: v("state"),
    zip: v("zip"),
    requesterIp: v("requester_ip"),
  };
}
