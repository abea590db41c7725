/**
 * Lets other engines on the same database wake this one's workers: one
 * dedicated connection (a pg Client of its own, not taken from the pool, whose
 * queries are bounded and whose connections come and go) LISTENs on the work
 * channel, and each notice sent by another engine wakes the worker of its kind
 * at once instead of at its next poll. When the connection drops it reconnects,
 * waiting twice as long after each failure (schedule.wakeUp), and once back it
 * wakes every worker, since a notice may have been sent meanwhile. Nothing
 * depends on it for correctness: the poll still finds all due work.
 */
import pg from "pg";
import type { ScheduleSettings } from "../shared/schedule-settings.ts";
import { readWorkNotice, WORK_CHANNEL, type WorkKind } from "./work-notice.ts";

/** How the connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = "cashier-work-listener";

export interface WorkListenerOptions {
  url: string;
  /** This engine's name in notices: its own are skipped (it woke its workers when it wrote the work). */
  origin: string;
  timing: ScheduleSettings["wakeUp"];
  /** Work of this kind may be due; undefined: of any kind (after a reconnect). */
  wake: (kind: WorkKind | undefined) => void;
  /** Listening (again), or the connection is lost (and will be retried). */
  onState?: (state: "listening" | "lost", err?: unknown) => void;
}

export interface WorkListener {
  /** Stops listening and closes the connection; nothing reconnects after this. */
  stop(): Promise<void>;
}

/** Resolves once the first attempt to listen is over, listening or not: a failure only delays wake-ups. */
export async function startWorkListener(o: WorkListenerOptions): Promise<WorkListener> {
  let stopped = false;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let listenedBefore = false;

  const retryLater = () => {
    const delay = Math.min(o.timing.reconnectMaxMs, o.timing.reconnectMinMs * 2 ** failures);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, delay);
    retryTimer.unref();
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: o.url,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: o.timing.connectTimeoutMs,
      // A peer that vanished without closing (a network cut) is noticed by TCP, not only at the next write.
      keepAlive: true,
    });
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === c) client = undefined;
      c.end().catch(() => {});
      if (stopped) return;
      o.onState?.("lost", err);
      retryLater();
    };
    c.on("error", onLost);
    c.on("end", () => onLost());
    c.on("notification", (n) => {
      if (n.channel !== WORK_CHANNEL) return;
      const notice = readWorkNotice(n.payload);
      if (notice.origin !== o.origin) o.wake(notice.kind);
    });
    try {
      await c.connect();
      await c.query(`listen ${WORK_CHANNEL}`);
    } catch (err) {
      onLost(err);
      return;
    }
    if (stopped || lost) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    o.onState?.("listening");
    // Notices sent while the connection was down are lost: look for work once.
    if (listenedBefore) o.wake(undefined);
    listenedBefore = true;
  };

  connecting = connect();
  await connecting;
  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await connecting;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
