/**
 * The engine's use cases in this process, over a real database and no socket:
 * the stores, the sim connectors to an acquirer simulator of its own, derived keys, the default schedule and
 * a clock the test moves, wired as engine.ts wires them, on a database cloned
 * from the run's template (test-database.ts). No worker runs: a test calls the
 * use case and reads the result and the database itself.
 */
import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { ProcessDeps } from "../../engine/payments/ports/process-deps.ts";
import { defaultSchedule } from "../../engine/payments/app/schedule.ts";
import { createSender } from "../../engine/payments/callbacks/http-sender.ts";
import { ownAccounts, ProcessorRegistry } from "../../engine/payments/processors/registry.ts";
import { deriveKeys } from "../../engine/security/keys.ts";
import { PgCallbackStore } from "../../engine/payments/store/callback-store.ts";
import { PgRiskRules } from "../../engine/payments/store/risk-rules-store.ts";
import { PgBlockList } from "../../engine/payments/store/block-lookup.ts";
import { PgFollowUpStore } from "../../engine/payments/store/follow-up-store.ts";
import { PgMerchantStore } from "../../engine/payments/store/merchant-store.ts";
import { PgOrderStore } from "../../engine/payments/store/order-store.ts";
import { migrate, openOrm } from "../../engine/store/orm.ts";
import { movableClock, type MovableClock } from "./clock.ts";
import { startTestSim, TEST_KEYS } from "./acquirer-sim.ts";
import { acquireDatabase } from "./test-database.ts";

export interface InProcessEngine {
  deps: ProcessDeps;
  merchants: PgMerchantStore;
  clock: MovableClock;
  orm: MikroORM;
  /** SQL on the test's database. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Builds the deps before the file's tests and closes the pool and drops the database after them. */
export function useEngineDeps(t: { before(fn: () => Promise<void>): void; teardown(fn: () => Promise<void>): void }): () => InProcessEngine {
  let engine: InProcessEngine | undefined;
  let done: (() => Promise<void>) | undefined;
  t.before(async () => {
    const db = await acquireDatabase();
    const orm = await openOrm(db.url, () => {});
    // The acquirer simulator on its own port, reached over HTTP as the engine reaches it.
    const sim = await startTestSim();
    done = async () => {
      await orm.close();
      await db.release();
      await sim.stop();
    };
    // A no-op on the template's clone; the migrations themselves on a database of one's own.
    await migrate(orm, () => {});
    const clock = movableClock();
    const keys = deriveKeys(randomBytes(32));
    const merchants = new PgMerchantStore(orm, keys.encryption, undefined, clock.now);
    const deps: ProcessDeps = {
      merchants,
      orders: new PgOrderStore(orm, "in-process"),
      followUps: new PgFollowUpStore(orm),
      callbacks: new PgCallbackStore(orm, "in-process"),
      blocks: new PgBlockList(orm),
      risk: new PgRiskRules(orm, 1),
      processors: new ProcessorRegistry(ownAccounts(sim.sim.url, TEST_KEYS, 5000), { timeoutMs: 5000 }),
      keys,
      send: createSender({ allowPrivate: true }),
      schedule: defaultSchedule,
      now: clock.now,
      publicUrl: () => "http://127.0.0.1:1",
      wake: () => {},
    };
    const sql = async <T>(text: string, params: unknown[] = []) => (await orm.em.fork().getConnection().execute(text, params)) as T[];
    engine = { deps, merchants, clock, orm, sql };
  });
  t.teardown(async () => {
    await done?.();
  });
  return () => {
    if (!engine) throw new Error("the in-process engine is not built yet");
    return engine;
  };
}
