/**
 * The little of Patroni's REST API the HA lab uses: the cluster as one node
 * sees it (GET /cluster), a role check (/primary, as HAProxy makes it) and a
 * switchover (POST /switchover, as `patronictl switchover` sends it).
 */
import { request } from "node:http";

/** One member of GET /cluster: role "leader", "sync_standby" or "replica"; state "running", "streaming", "stopped"... */
export interface ClusterMember {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

/**
 * The HTTP status of a call to a node's REST API (0: no answer within the time, 2 s unless said), its body read and
 * dropped. A switchover answers once it is over.
 */
export function patroniRequest(port: number, method: string, path: string, body?: unknown, timeoutMs = 2000): Promise<number> {
  return patroniCall(port, method, path, body, timeoutMs).then((r) => r.status);
}

function patroniCall(port: number, method: string, path: string, body?: unknown, timeoutMs = 2000): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      { host: "127.0.0.1", port, method, path, timeout: timeoutMs, headers: payload ? { "content-type": "application/json" } : {} },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", () => resolve({ status: 0, text }));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, text: "" }));
    req.end(payload);
  });
}

/** The cluster as the first node that answers sees it (a frozen or dead node does not). */
export async function clusterOf(restPorts: number[]): Promise<ClusterMember[]> {
  for (const port of restPorts) {
    const r = await patroniCall(port, "GET", "/cluster");
    if (r.status !== 200) continue;
    try {
      return (JSON.parse(r.text) as { members: ClusterMember[] }).members;
    } catch {}
  }
  throw new Error("no Patroni node answers GET /cluster");
}

/** The leader's name, when a member holds the leader key and runs. */
export function leaderOf(members: ClusterMember[]): string | undefined {
  return members.find((m) => m.role === "leader" && m.state === "running")?.name;
}
