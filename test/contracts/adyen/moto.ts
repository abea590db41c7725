/**
 * What makes an Adyen payment a mail or telephone order (MOTO), in the published spec's own words: read by the
 * connector's unit contract test and by the e2e test of what the Adyen stand-in received from the Virtual Terminal.
 */
import { checkoutSpec } from "./schemas.ts";

/**
 * The value of PaymentRequest.shopperInteraction that the spec describes as mail and telephone orders: read from
 * Adyen's own description of the enumeration, so that the MOTO body is checked against Adyen's word, not ours.
 */
export function motoInteraction(): { value: string | undefined; values: string[] } {
  const p = checkoutSpec.components.schemas.PaymentRequest.properties.shopperInteraction;
  return { value: /`(\w+)` - Mail-order and telephone-order/.exec(p.description)?.[1], values: p.enum };
}

/** The members that ask for or carry 3-D Secure, or mark a stored card's payment: none belongs in a MOTO body. */
export const NOT_IN_MOTO = [
  "threeDS2RequestData",
  "authenticationData",
  "threeDSAuthenticationOnly",
  "mpiData",
  "browserInfo",
  "channel",
  "origin",
  "redirectFromIssuerMethod",
  "redirectToIssuerMethod",
  "recurringProcessingModel",
  "storePaymentMethod",
  "shopperReference",
] as const;
