/**
 * What makes a Checkout.com payment a mail or telephone order (MOTO), from the published spec: read by the
 * connector's unit contract test and by the e2e test of what the Checkout.com stand-in received from the Virtual
 * Terminal.
 */
import { spec } from "./schemas.ts";

/** PaymentRequest.payment_type's MOTO, as the spec enumerates it (undefined if it no longer does), and every value. */
export function motoPaymentType(): { value: string | undefined; values: string[] } {
  const values: string[] = spec.components.schemas.PaymentRequest.properties.payment_type.enum;
  return { value: values.find((v) => v === "MOTO"), values };
}

/** The members that ask for 3-D Secure, send the customer somewhere, or mark a stored card's payment: none belongs in a MOTO body. */
export const NOT_IN_MOTO = ["3ds", "success_url", "failure_url", "previous_payment_id", "merchant_initiated"] as const;
