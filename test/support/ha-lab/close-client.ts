/**
 * Closes a pg client within a bound. pg's end() waits for the socket to
 * close, and a connection through HAProxy to a frozen node may never close
 * (HAProxy holds its half-closed side while the node cannot answer): the
 * failover test's own probes once waited on one for good. After the bound the
 * socket is destroyed.
 */
import type pg from "pg";

export async function closeClient(c: pg.Client, ms = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([c.end().catch(() => {}), bound]);
  clearTimeout(timer);
  (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
