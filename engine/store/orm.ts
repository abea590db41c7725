/**
 * MikroORM on Postgres: the entities, the committed migrations (run at start,
 * never schema.update()), and the pool.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { Migrator } from "@mikro-orm/migrations";
import { MerchantEntity } from "./entities/merchant.entity.ts";
import { FrontendEntity } from "./entities/frontend.entity.ts";
import { OrderEntity } from "./entities/order.entity.ts";
import { TransactionEntity } from "./entities/transaction.entity.ts";
import { TransactionEventEntity } from "./entities/transaction-event.entity.ts";
import { Migration001Initial } from "./migrations/001-initial.ts";
import { Migration002Callbacks } from "./migrations/002-callbacks.ts";
import { Migration003SecretRotation } from "./migrations/003-secret-rotation.ts";
import { Migration004Recovery } from "./migrations/004-recovery.ts";

export const ENTITIES = [MerchantEntity, FrontendEntity, OrderEntity, TransactionEntity, TransactionEventEntity];
export const MIGRATIONS = [
  { name: "001-initial", class: Migration001Initial },
  { name: "002-callbacks", class: Migration002Callbacks },
  { name: "003-secret-rotation", class: Migration003SecretRotation },
  { name: "004-recovery", class: Migration004Recovery },
];

export async function openOrm(url: string, log: (msg: string) => void, poolSize = 20): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities: ENTITIES,
    extensions: [Migrator],
    pool: { min: 1, max: poolSize },
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, tableName: "mikro_orm_migrations", silent: true, snapshot: false, snapshotOnMigrate: false },
    logger: log,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    allowGlobalContext: false,
  });
  const applied = await orm.migrator.up();
  if (applied.length > 0) log(`migrations applied: ${applied.map((m) => m.name).join(", ")}`);
  return orm;
}
