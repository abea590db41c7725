/**
 * The engine's plain values, complete, for unit and store tests: each builder
 * fills every member with a plausible value, so that a test writes out only
 * the members its assertions depend on (as overrides, where the reader sees
 * them) and a member added to the type is added here once, not in every test.
 * Each call returns new objects: a test may change what it was given.
 */
import type { Attempt, CustomerInput, ProcessInput } from "../../engine/shared/transaction.ts";

/** The instant every built value was made at: fixed, so that nothing depends on the clock. */
export const BUILT_AT = new Date("2026-11-18T10:00:00Z");

/**
 * An attempt as the engine reads it back: the first attempt of a 10.50 USD card sale by Process for merchant
 * m-demo (frontend demo-usd), sent to sim-a and still pending, with no processor id, no error and no callback URL.
 */
export function anAttempt(over: Partial<Attempt> = {}): Attempt {
  return {
    traceId: 1001,
    orderRef: 1,
    orderId: "ord-1001",
    merchantId: "m-demo",
    type: "sale",
    attempt: 1,
    status: "pending",
    payoutLetter: null,
    depositState: null,
    amountMinor: 1050,
    currency: "USD",
    processor: "sim-a",
    transactionId: null,
    errorCode: null,
    errorDetails: null,
    redirectUrl: null,
    cardMasked: "411111******1111",
    cardBrand: "VISA",
    cardExpiry: "12/2030",
    pin: "cust-42",
    frontend: "demo-usd",
    referenceTraceId: null,
    cardHeld: false,
    notificationUrl: null,
    returnUrl: "https://merchant.example/return",
    requesterIp: "",
    processorCode: null,
    submitted: true,
    challengeExpiresAt: null,
    completingUntil: null,
    acquirerRedirectUrl: null,
    cascade: null,
    routingRule: null,
    replied: false,
    createdBy: "api",
    sessionRef: null,
    scOrderId: null,
    udef1: null,
    udef2: null,
    createdAt: BUILT_AT,
    updatedAt: BUILT_AT,
    ...over,
  };
}

/** A Process request's customer that every rule accepts: Jane Doe in GB, with only the required members and a postcode. */
export function aCustomer(over: Partial<CustomerInput> = {}): CustomerInput {
  return {
    pin: "cust-42",
    email: "jane@example.com",
    firstName: "Jane",
    lastName: "Doe",
    dob: "",
    phone: "",
    address: "",
    city: "",
    country: "GB",
    state: "",
    zip: "SW1A1AA",
    requesterIp: "",
    ...over,
  };
}

/** What aProcessInput takes: any member, and the card's and customer's members one by one. */
export type ProcessInputOverrides = Omit<Partial<ProcessInput>, "card" | "customer"> & {
  card?: Partial<ProcessInput["card"]>;
  customer?: Partial<CustomerInput>;
};

/**
 * A Process request every rule accepts (CONTRACT section 3's example): a 10.50 USD sale for merchant m-demo on
 * frontend demo-usd, order ord-1001, the Visa test card expiring 12/2030, signed at 1795000000.
 */
export function aProcessInput(over: ProcessInputOverrides = {}): ProcessInput {
  const { card, customer, ...rest } = over;
  return {
    merchantId: "m-demo",
    orderId: "ord-1001",
    type: "sale",
    amountMinor: 1050,
    currency: "USD",
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030", ...card },
    customer: aCustomer(customer),
    frontend: "demo-usd",
    returnUrl: "https://merchant.example/return",
    notificationUrl: "",
    referenceId: "",
    timestamp: 1795000000,
    version: "1.0",
    errorCode: 0,
    errorDetails: "",
    ...rest,
  };
}
