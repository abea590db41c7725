/**
 * A pending sale's OrderDraft as the stores take it, for store tests on a real
 * Postgres: merchant `merchantId`, frontend "web" in EUR, a masked Visa card,
 * an empty customer from 192.0.2.7. `extra` replaces any member.
 */
import type { OrderDraft } from "../../engine/payments/ports/orders.ts";

export function orderDraft(merchantId: string, orderId: string, extra: Partial<OrderDraft> = {}): OrderDraft {
  return {
    merchantId,
    orderId,
    type: "sale",
    fingerprint: `fp-${orderId}`,
    amountMinor: 5000,
    currency: "EUR",
    frontend: "web",
    pin: "pin-1",
    customer: {
      pin: "pin-1",
      email: "",
      firstName: "",
      lastName: "",
      dob: "",
      phone: "",
      address: "",
      city: "",
      country: "",
      state: "",
      zip: "",
      requesterIp: "192.0.2.7",
    },
    cardMasked: "411111******1111",
    cardBrand: "visa",
    cardExpiry: "12/30",
    cardFingerprint: "card-fp",
    returnUrl: "https://shop.example/return",
    notificationUrl: null,
    referenceTraceId: null,
    processor: "sim-a",
    initial: { status: "pending", letter: null },
    ...extra,
  };
}
