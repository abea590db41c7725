/**
 * The payments module's public entry: what the hosted Cashier, the console and
 * the retention purge may use of it (its domain rules, its ports and the use
 * cases they call). Nothing else of engine/payments/ is for another module;
 * the dependency rules (.dependency-cruiser.cjs) refuse a reach past this file.
 */
export { advance } from "./app/advance.ts";
export { merchantOfRequest, type WireSignature } from "./app/authenticate.ts";
export { decidePayout, type PayoutDecision } from "./app/decide-payout.ts";
export { refundAmountFaults, refundByOperator, refundRefusal } from "./app/operator-refund.ts";
export { cancelSaleByOperator } from "./app/cancel-sale.ts";
export { saleCancelRefusal } from "./domain/sale-cancel.ts";
export { MIN_SECRET_LENGTH, MerchantsFileError, parseFrontend, parseMerchantEntry, parseProcessorAccounts } from "./app/merchant-spec.ts";
export { processTransaction, type OrderOrigin } from "./app/process-transaction.ts";
export { BACKOFFICE_MAKER, motoNotificationUrl } from "./domain/moto.ts";
export { cardTokenHash, sealTokenCard } from "./app/card-token-use.ts";
export type { CardTokenStore } from "./ports/card-tokens.ts";
export { connectorCatalogue, type ConnectorEntry } from "./app/connector-catalogue.ts";
export { previewRouting, type PreviewQuestion } from "./app/routing-preview.ts";
export { parseRoutingRules, ROUTING_CARD_BRANDS } from "./app/routing-spec.ts";
export { ruleLabel, type RoutingRule } from "./domain/routing.ts";
export type { Schedule } from "./ports/schedule.ts";
export { checkVerdict, type CheckStep } from "./domain/check-now.ts";
export { LIMIT_FIELDS, type FrontendSettings } from "./domain/frontend-settings.ts";
export { type BrandingContrastView, previewBranding } from "./app/branding-preview.ts";
export { step } from "./domain/outcome.ts";
export { BIN_PATTERN, BLOCK_KINDS, type BlockKind, blockIdOfCause, blockKeys, normalEmail } from "./domain/blocks.ts";
export { LIMIT_PERIODS, MAX_RISK_RULES, type RiskRule, riskRuleOfCause } from "./domain/risk-rules.ts";
export { fieldsOfRule, parseRiskRule, type RiskRuleFields } from "./domain/risk-rule-input.ts";
export { type DryRunOrder, dryRun } from "./domain/risk-dry-run.ts";
export { TRANSITIONS, canTransition, stateOf } from "./domain/transitions.ts";
export { validateProcess } from "./domain/validate-process.ts";
export type { CallbackView } from "./ports/callbacks.ts";
export { type CallbackUrlCheck, addressRefusedReason } from "./callbacks/address-guard.ts";
export type {
  FrontendWithSettings,
  Merchant,
  MerchantAdminStore,
  MerchantDirectory,
  MerchantSettings,
  MerchantView,
  ProcessorAccountView,
} from "./ports/merchants.ts";
export type { ProcessDeps } from "./ports/process-deps.ts";
