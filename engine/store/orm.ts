/**
 * MikroORM on Postgres: the entities (one per table, entities/all-entities.ts),
 * the committed migrations (run at start under an advisory lock, never
 * schema.update()), and the pool.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { Migrator } from "@mikro-orm/migrations";
import { ENTITIES } from "./entities/all-entities.ts";
import { Migration001Initial } from "./migrations/001-initial.ts";
import { Migration002Callbacks } from "./migrations/002-callbacks.ts";
import { Migration003SecretRotation } from "./migrations/003-secret-rotation.ts";
import { Migration004Recovery } from "./migrations/004-recovery.ts";
import { Migration005FairDelivery } from "./migrations/005-fair-delivery.ts";
import { Migration006FrontendSettings } from "./migrations/006-frontend-settings.ts";
import { Migration007LookupSweep } from "./migrations/007-lookup-sweep.ts";
import { Migration008ProcessorAccounts } from "./migrations/008-processor-accounts.ts";
import { Migration009HostedCashier } from "./migrations/009-hosted-cashier.ts";
import { Migration010Retention } from "./migrations/010-retention.ts";
import { Migration011SearchIndexes } from "./migrations/011-search-indexes.ts";
import { Migration013Backoffice } from "./migrations/013-backoffice.ts";
import { Migration014SessionRetention } from "./migrations/014-session-retention.ts";
import { Migration015AccessIssuer } from "./migrations/015-access-issuer.ts";
import { Migration016OrderIdClaim } from "./migrations/016-order-id-claim.ts";
import { Migration017ConnectorAccounts } from "./migrations/017-connector-accounts.ts";
import { Migration018AcquirerWebhooks } from "./migrations/018-acquirer-webhooks.ts";
import { Migration019Routing } from "./migrations/019-routing.ts";
import { Migration020WebhookRetention } from "./migrations/020-webhook-retention.ts";
import { Migration021AuditCheckpoints } from "./migrations/021-audit-checkpoints.ts";
import { Migration022MonthlyPartitions } from "./migrations/022-monthly-partitions.ts";
import { Migration023OperatorDualControl } from "./migrations/023-operator-dual-control.ts";
import { Migration024OperatorPreferences } from "./migrations/024-operator-preferences.ts";
import { Migration026CustomerBlocks } from "./migrations/026-customer-blocks.ts";
import { Migration027MoneyActions } from "./migrations/027-money-actions.ts";
import { Migration028CardTokens } from "./migrations/028-card-tokens.ts";
import { Migration029FrontendBranding } from "./migrations/029-frontend-branding.ts";
import { Migration030RiskRules } from "./migrations/030-risk-rules.ts";
import { Migration031RiskRuleSource } from "./migrations/031-risk-rule-source.ts";
import { Migration032BrandLogos } from "./migrations/032-brand-logos.ts";
import { Migration033UnsettledCallbacksNewest } from "./migrations/033-unsettled-callbacks-newest.ts";

const MIGRATIONS = [
  { name: "001-initial", class: Migration001Initial },
  { name: "002-callbacks", class: Migration002Callbacks },
  { name: "003-secret-rotation", class: Migration003SecretRotation },
  { name: "004-recovery", class: Migration004Recovery },
  { name: "005-fair-delivery", class: Migration005FairDelivery },
  { name: "006-frontend-settings", class: Migration006FrontendSettings },
  { name: "007-lookup-sweep", class: Migration007LookupSweep },
  { name: "008-processor-accounts", class: Migration008ProcessorAccounts },
  { name: "009-hosted-cashier", class: Migration009HostedCashier },
  { name: "010-retention", class: Migration010Retention },
  { name: "011-search-indexes", class: Migration011SearchIndexes },
  { name: "013-backoffice", class: Migration013Backoffice },
  { name: "014-session-retention", class: Migration014SessionRetention },
  { name: "015-access-issuer", class: Migration015AccessIssuer },
  { name: "016-order-id-claim", class: Migration016OrderIdClaim },
  { name: "017-connector-accounts", class: Migration017ConnectorAccounts },
  { name: "018-acquirer-webhooks", class: Migration018AcquirerWebhooks },
  { name: "019-routing", class: Migration019Routing },
  { name: "020-webhook-retention", class: Migration020WebhookRetention },
  { name: "021-audit-checkpoints", class: Migration021AuditCheckpoints },
  { name: "022-monthly-partitions", class: Migration022MonthlyPartitions },
  { name: "023-operator-dual-control", class: Migration023OperatorDualControl },
  { name: "024-operator-preferences", class: Migration024OperatorPreferences },
  { name: "026-customer-blocks", class: Migration026CustomerBlocks },
  { name: "027-money-actions", class: Migration027MoneyActions },
  { name: "028-card-tokens", class: Migration028CardTokens },
  { name: "029-frontend-branding", class: Migration029FrontendBranding },
  { name: "030-risk-rules", class: Migration030RiskRules },
  { name: "031-risk-rule-source", class: Migration031RiskRuleSource },
  { name: "032-brand-logos", class: Migration032BrandLogos },
  { name: "033-unsettled-callbacks-newest", class: Migration033UnsettledCallbacksNewest },
];

/** Longest wait for a pooled connection, and for one query, before the call fails as UNAVAILABLE. */
export const POOL_WAIT_MS = 5000;
export const QUERY_TIMEOUT_MS = 10_000;
/**
 * The server's own bound on a statement of the serving pool, a second inside the client's: a statement that waits
 * (on a lock, a slow disk) is cancelled by Postgres before the client gives up on it. Without it the client answered
 * 503 ("retry later") while the statement went on and could commit afterwards: an order the platform was told
 * was not taken, there when it retried. Set on the service role (service-role.ts), so that it holds behind a
 * pooler that refuses start-up parameters (PgBouncer); an engine serving as the URL's own user has that user's.
 */
export const STATEMENT_TIMEOUT_MS = QUERY_TIMEOUT_MS - 1000;

/**
 * `bounded` (the serving pool): a database that hangs (not refusing, not
 * answering) fails calls instead of holding them; waiting for a connection and
 * each query are bounded and the caller gets a retryable 503. The start-up
 * pool (migrations, the start-up lock) is not bounded: a migration or a wait
 * for another engine's start may rightly take longer.
 */
export async function openOrm(url: string, log: (msg: string) => void, opts: { poolSize?: number; bounded?: boolean } = {}): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: [...ENTITIES],
    extensions: [Migrator],
    pool: { min: 1, max: opts.poolSize ?? 20 },
    driverOptions: opts.bounded === false ? {} : { connectionTimeoutMillis: POOL_WAIT_MS, query_timeout: QUERY_TIMEOUT_MS },
    migrations: {
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      tableName: "mikro_orm_migrations",
      silent: true,
      snapshot: false,
      snapshotOnMigrate: false,
    },
    logger: log,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    allowGlobalContext: false,
  });
  return orm;
}

/** Runs the committed migrations that are not applied yet. */
export async function migrate(orm: MikroORM, log: (msg: string) => void): Promise<void> {
  const applied = await orm.migrator.up();
  if (applied.length > 0) log(`migrations applied: ${applied.map((m) => m.name).join(", ")}`);
}

/** Any number: the key of the advisory lock every starting engine takes. */
const STARTUP_LOCK = 7_207_369_001;

/**
 * Runs `fn` holding a session advisory lock: engines starting together on one
 * database (docker compose up --scale engine=2) migrate and create the demo
 * merchant one after the other, never at the same moment.
 */
export async function withStartupLock<T>(orm: MikroORM, fn: () => Promise<T>): Promise<T> {
  const pool = (await orm.em.getConnection().getNativeClient()) as {
    connect(): Promise<{ query(sql: string, values?: unknown[]): Promise<unknown>; release(): void }>;
  };
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    try {
      return await fn();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK]);
    }
  } finally {
    client.release();
  }
}
