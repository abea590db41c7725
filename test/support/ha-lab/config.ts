/**
 * The HA lab's configuration files as pure functions of its ports and
 * directory: one etcd, three Patroni nodes (synchronous replication) and
 * HAProxy in front of them. Kept apart from the processes (lab.ts) so that
 * docs/ha-lab.md's settings and these are one reading.
 */

/** The Patroni cluster's name in etcd (its "scope"). */
export const SCOPE = "cashier-ha";

/** Where each node listens: Postgres and Patroni's REST API (which HAProxy checks). */
export interface NodePorts {
  name: string;
  pg: number;
  rest: number;
}

export interface LabPorts {
  etcdClient: number;
  etcdPeer: number;
  /** HAProxy: the primary (read-write) and a replica (read-only), and its statistics page. */
  primary: number;
  replica: number;
  stats: number;
  nodes: NodePorts[];
}

/** The database users Patroni creates: the superuser the engine migrates with, replication, pg_rewind. */
export interface LabPasswords {
  superuser: string;
  replication: string;
  rewind: string;
}

/**
 * Patroni's failure detection, in seconds. The leader key lives `ttl` seconds: a primary that stops renewing it
 * (killed, frozen, cut off) is replaced once it expires. Patroni asks loop_wait + 2 * retry_timeout <= ttl.
 */
export const TIMING = { ttl: 10, loopWait: 1, retryTimeout: 4 };

/** `etcd`'s arguments: one member on loopback (a lab: three would add nothing but processes on two cores). */
export function etcdArgs(dir: string, p: LabPorts): string[] {
  const peer = `http://127.0.0.1:${p.etcdPeer}`;
  const client = `http://127.0.0.1:${p.etcdClient}`;
  return [
    "--name=lab",
    `--data-dir=${dir}/etcd`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=lab=${peer}`,
    "--initial-cluster-state=new",
    // A lab's etcd holds a few keys: no need for the default 2 GB quota's preallocation.
    "--quota-backend-bytes=104857600",
    // Patroni talks etcd's v2 API (patroniConfig says why), which etcd 3.4 serves when asked.
    "--enable-v2=true",
  ];
}

/**
 * Where Patroni (and patronictl) find etcd: its v2 API, not v3. Debian 12's Patroni 3.0.2 renews the leader key on
 * the v3 API with an unconditional write once its lease has run out: a primary frozen longer than the key's ttl
 * (a pause, a cut healed) takes the key back from the standby promoted meanwhile, which then demotes itself and
 * rewinds away the commits it had acknowledged (this lab's cut test saw it; fixed upstream in May 2023, patroni/patroni
 * pull request 2689). On v2, the renewal is a compare-and-swap on the key's value, which fails once another node
 * holds it.
 */
export function dcsOf(p: LabPorts): { etcd: { host: string; protocol: string } } {
  return { etcd: { host: `127.0.0.1:${p.etcdClient}`, protocol: "http" } };
}

/**
 * One node's Patroni configuration (Patroni reads YAML, of which JSON is a part). What matters:
 * - synchronous_mode on: a commit returns once a second node has it in its WAL, and Patroni promotes only the
 *   synchronous standby, so a commit the engine saw survives the loss of the primary;
 * - synchronous_mode_strict off: with one node left the primary goes on alone (docs/ha-lab.md says why);
 * - use_pg_rewind and the remove_data_directory_* switches: a node that was primary rejoins as a replica by itself.
 */
export function patroniConfig(dir: string, p: LabPorts, node: NodePorts, pw: LabPasswords, binDir: string): Record<string, unknown> {
  return {
    scope: SCOPE,
    namespace: "/cashier/",
    name: node.name,
    log: { level: "INFO" },
    restapi: { listen: `127.0.0.1:${node.rest}`, connect_address: `127.0.0.1:${node.rest}` },
    ...dcsOf(p),
    bootstrap: {
      dcs: {
        ttl: TIMING.ttl,
        loop_wait: TIMING.loopWait,
        retry_timeout: TIMING.retryTimeout,
        maximum_lag_on_failover: 1048576,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        synchronous_node_count: 1,
        postgresql: {
          use_pg_rewind: true,
          parameters: {
            max_connections: 100,
            shared_buffers: "32MB",
            wal_level: "replica",
            hot_standby: "on",
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: "128MB",
            wal_log_hints: "on",
            synchronous_commit: "on",
          },
        },
      },
      initdb: [{ encoding: "UTF8" }, { locale: "C.UTF-8" }, "data-checksums"],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pg}`,
      connect_address: `127.0.0.1:${node.pg}`,
      data_dir: `${dir}/${node.name}/data`,
      bin_dir: binDir,
      pgpass: `${dir}/${node.name}/pgpass`,
      use_pg_rewind: true,
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      authentication: {
        superuser: { username: "postgres", password: pw.superuser },
        replication: { username: "replicator", password: pw.replication },
        rewind: { username: "rewinder", password: pw.rewind },
      },
      parameters: { unix_socket_directories: `${dir}/${node.name}` },
      pg_hba: ["local all all trust", "host replication replicator 127.0.0.1/32 scram-sha-256", "host all all 127.0.0.1/32 scram-sha-256"],
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/**
 * HAProxy: the primary port forwards to the node whose Patroni answers 200 on /primary, the replica port to those
 * answering /replica. A node failing two checks a second apart is marked down and its sessions are cut
 * (on-marked-down shutdown-sessions): a client still talking to a demoted or frozen primary is disconnected and
 * reconnects to the new one, instead of waiting on a connection no one will answer.
 */
export function haproxyConfig(p: LabPorts): string {
  const servers = (check: string) => p.nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pg} check port ${n.rest}  # ${check}`).join("\n");
  const backend = (name: string, port: number, path: string, balance: string) => `listen ${name}
  bind 127.0.0.1:${port}
  balance ${balance}
  option httpchk
  http-check send meth OPTIONS uri ${path}
  http-check expect status 200
  default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${servers(`Patroni ${path}`)}
`;
  return `global
  maxconn 512

defaults
  mode tcp
  log global
  retries 0
  timeout connect 2s
  timeout check 2s
  # Pooled connections sit idle between queries; the engine's own bounds, not HAProxy's, time a query.
  timeout client 30m
  timeout server 30m
  # A connection one side has closed is not held open for the other: a frozen node never answers its half.
  timeout client-fin 5s
  timeout server-fin 5s

${backend("primary", p.primary, "/primary", "first")}
${backend("replicas", p.replica, "/replica", "roundrobin")}
listen stats
  mode http
  bind 127.0.0.1:${p.stats}
  stats enable
  stats uri /
  stats refresh 2s
`;
}
