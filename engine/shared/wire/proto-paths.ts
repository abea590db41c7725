/**
 * Domain field -> the ProcessRequest field path, for refusals that answer a
 * direct gRPC caller: it sent a ProcessRequest, so its errors name that
 * message's fields (card.number, amount.currency), as google.rpc's
 * BadRequest field paths do.
 */
import type { FieldNames } from "./process-fields.ts";

export const PROTO_PATHS: FieldNames = {
  merchantId: "merchant_id",
  orderId: "order_id",
  transactionType: "transaction_type",
  amount: "amount.amount_minor",
  currency: "amount.currency",
  cardNumber: "card.number",
  cvv: "card.cvv",
  cardExp: "card.expiry",
  pin: "customer.pin",
  dob: "customer.dob",
  email: "customer.email",
  phone: "customer.phone",
  requesterIp: "customer.requester_ip",
  address: "customer.address",
  city: "customer.city",
  country: "customer.country",
  firstName: "customer.first_name",
  lastName: "customer.last_name",
  state: "customer.state",
  zip: "customer.zip",
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
