/**
 * Every table's entity, in one list: the ORM discovers these, the typed Kysely
 * database is inferred from them (kysely.ts), and a test checks that together
 * they cover the migrated schema column for column.
 */
import { AcquirerWebhookEventEntity } from "./acquirer-webhook-event.entity.ts";
import { AcquirerWebhookEventKeyEntity } from "./acquirer-webhook-event-key.entity.ts";
import { AllowedTransitionEntity } from "./allowed-transition.entity.ts";
import { CallbackAttemptEntity } from "./callback-attempt.entity.ts";
import { CallbackEntity } from "./callback.entity.ts";
import { CashierSessionEntity } from "./cashier-session.entity.ts";
import { HostedSessionEntity } from "./hosted-session.entity.ts";
import { SavedCardEntity } from "./saved-card.entity.ts";
import { FrontendEntity } from "./frontend.entity.ts";
import { MerchantEntity } from "./merchant.entity.ts";
import { PaymentOrderEntity } from "./payment-order.entity.ts";
import { ProcessorAccountEntity } from "./processor-account.entity.ts";
import { RecoveryWatermarkEntity } from "./recovery-watermark.entity.ts";
import { RetentionWatermarkEntity } from "./retention-watermark.entity.ts";
import { TransactionEventEntity } from "./transaction-event.entity.ts";
import { TransactionEntity } from "./transaction.entity.ts";
import { AuditLogEntity } from "./audit-log.entity.ts";
import { AuditCheckpointEntity } from "./audit-checkpoint.entity.ts";
import { ConsoleSessionEntity } from "./console-session.entity.ts";
import { FourEyesThresholdEntity } from "./four-eyes-threshold.entity.ts";
import { OperatorPasskeyEntity } from "./operator-passkey.entity.ts";
import { OperatorEntity } from "./operator.entity.ts";
import { PayoutFirstApprovalEntity } from "./payout-first-approval.entity.ts";
import { PayoutHoldEntity } from "./payout-hold.entity.ts";
import { RefundFirstApprovalEntity } from "./refund-first-approval.entity.ts";
import { CustomerBlockEntity } from "./customer-block.entity.ts";
import { RiskRuleEntity } from "./risk-rule.entity.ts";
import { CustomerNoteEntity } from "./customer-note.entity.ts";
import { CardTokenEntity } from "./card-token.entity.ts";
import { OperatorPreferenceEntity } from "./operator-preference.entity.ts";
import { OperatorSavedSearchEntity } from "./operator-saved-search.entity.ts";
import { BrandLogoEntity } from "./brand-logo.entity.ts";

export const ENTITIES = [
  MerchantEntity,
  FrontendEntity,
  PaymentOrderEntity,
  TransactionEntity,
  TransactionEventEntity,
  CashierSessionEntity,
  CallbackEntity,
  CallbackAttemptEntity,
  AllowedTransitionEntity,
  RecoveryWatermarkEntity,
  ProcessorAccountEntity,
  RetentionWatermarkEntity,
  HostedSessionEntity,
  SavedCardEntity,
  // The Backoffice (013).
  OperatorEntity,
  OperatorPasskeyEntity,
  ConsoleSessionEntity,
  FourEyesThresholdEntity,
  PayoutFirstApprovalEntity,
  AuditLogEntity,
  // The audit chain's signed checkpoints (021).
  AuditCheckpointEntity,
  // Acquirers' webhooks (018).
  AcquirerWebhookEventEntity,
  // Their keys, apart since the inbox is partitioned by month (022).
  AcquirerWebhookEventKeyEntity,
  // The Backoffice's money actions: payout holds and refunds' first approvals (027).
  PayoutHoldEntity,
  RefundFirstApprovalEntity,
  // Operators' blocks and notes on customers (026).
  CustomerBlockEntity,
  RiskRuleEntity,
  CustomerNoteEntity,
  // The hosted payment fields' card tokens (028).
  CardTokenEntity,
  // Operators' work-view preferences and saved searches (024).
  OperatorPreferenceEntity,
  OperatorSavedSearchEntity,
  // Frontends' logos, named by their SHA-256 (032).
  BrandLogoEntity,
] as const;
