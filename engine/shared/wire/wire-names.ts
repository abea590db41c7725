/**
 * Domain field -> the seed's member name (section 2.1), for refusals that
 * answer a request which came over the HTTP wire: the platform reads the
 * field named as it wrote it.
 */
import type { FieldNames } from "./process-fields.ts";

export const WIRE_NAMES: FieldNames = {
  merchantId: "merchant_id",
  orderId: "order_id",
  transactionType: "transaction_type",
  amount: "amount",
  currency: "currency",
  cardNumber: "card_number",
  cvv: "cvv",
  cardExp: "card_exp",
  pin: "pin",
  dob: "dob",
  email: "email",
  phone: "phone",
  requesterIp: "requester_ip",
  address: "address",
  city: "city",
  country: "country",
  firstName: "first_name",
  lastName: "last_name",
  state: "state",
  zip: "zip",
  frontend: "frontend",
  returnUrl: "return_url",
  notificationUrl: "notification_url",
  referenceId: "reference_id",
  errorDetails: "error_details",
  errorCode: "error_code",
  version: "version",
  timestamp: "timestamp",
  cardToken: "card_token",
};
