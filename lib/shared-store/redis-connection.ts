/**
 * How RedisStore talks to the client it is given: one `send(args, key)` for every kind of client,
 * and `sendAcknowledged`, a write followed by `WAIT` on the same connection (`waitForReplicas`).
 *
 *   node-redis client          sendCommand(args)
 *   node-redis cluster         sendCommand(firstKey, false, args): routed by `key` (createCluster)
 *   ioredis Redis              call(command, ...args); a Sentinel-backed client is one of these
 *   ioredis Cluster            call(...) routed by the command's first key (isCluster: true)
 *
 * `WAIT` must follow the write on the connection that wrote it: ioredis (Redis or Cluster) sends
 * both in one pipeline (a Cluster sends it to the write's slot; a connection lost under it is
 * resent in order); node-redis sends both at once on the one connection (for a cluster, the one to
 * the key's node).
 */

export type Send = (args: string[], key?: string) => Promise<unknown>

/** What Gatehouse needs of a Redis client: node-redis's `sendCommand` or ioredis's `call`. */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown> }
  | { call(command: string, ...args: string[]): Promise<unknown> }

/** `waitForReplicas`: a claim or revocation counts as written once this many replicas have it. */
export interface WaitForReplicas {
  /** Replicas that must acknowledge the write (`WAIT numreplicas`), at least 1. */
  replicas: number
  /** How long to wait for them (`WAIT timeout`), in ms, at least 1: a shortfall then fails the write. */
  timeoutMs: number
}

export interface RedisConnection {
  /** Whether the client is a cluster (ioredis Cluster, node-redis createCluster). */
  cluster: boolean
  send: Send
  /** `args` (a write on `key`) then `WAIT`: the write's answer, once enough replicas have it; else throws. */
  sendAcknowledged(args: string[], key: string, wait: WaitForReplicas): Promise<unknown>
}

type IORedisPipeline = { call(command: string, ...args: string[]): IORedisPipeline; exec(): Promise<Array<[Error | null, unknown]> | null> }

type IORedisLike = {
  call(command: string, ...args: string[]): Promise<unknown>
  pipeline?: () => IORedisPipeline
  isCluster?: boolean
}

export class ReplicasShortfall extends Error {
  constructor(acknowledged: number, wait: WaitForReplicas) {
    super(`${acknowledged} of ${wait.replicas} replicas acknowledged the write within ${wait.timeoutMs} ms (waitForReplicas)`)
    this.name = "ReplicasShortfall"
  }
}

function checked(acknowledged: unknown, wait: WaitForReplicas): void {
  if (Number(acknowledged) < wait.replicas) throw new ReplicasShortfall(Number(acknowledged), wait)
}

/** node-redis's cluster client: `sendCommand(firstKey, isReadonly, args)`, and node lists (createCluster). */
function isNodeRedisCluster(client: object): boolean {
  return "masters" in client && "slots" in client && typeof (client as { sendCommand?: unknown }).sendCommand === "function"
}

export function redisConnection(client: RedisClientLike): RedisConnection {
  // ioredis first: it has a `sendCommand` too, but one that takes its own Command objects.
  if ("call" in client && typeof client.call === "function") {
    const io = client as IORedisLike
    return {
      cluster: io.isCluster === true,
      send: ([command, ...args]) => io.call(command as string, ...args),
      async sendAcknowledged([command, ...args], _key, wait) {
        if (typeof io.pipeline !== "function") throw new TypeError("waitForReplicas needs an ioredis client with pipeline()")
        const answers = (await io.pipeline().call(command as string, ...args).call("WAIT", String(wait.replicas), String(wait.timeoutMs)).exec()) ?? []
        const [written, waited] = answers
        if (!written || written[0]) throw written?.[0] ?? new Error("no answer to the write")
        if (!waited || waited[0]) throw waited?.[0] ?? new Error("no answer to WAIT")
        checked(waited[1], wait)
        return written[1]
      },
    }
  }
  if ("sendCommand" in client && typeof client.sendCommand === "function") {
    if (isNodeRedisCluster(client)) {
      const cluster = client as { sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown> }
      const send: Send = (args, key) => cluster.sendCommand(key, false, args)
      return {
        cluster: true,
        send,
        async sendAcknowledged(args, key, wait) {
          const [written, waited] = await Promise.all([send(args, key), send(["WAIT", String(wait.replicas), String(wait.timeoutMs)], key)])
          checked(waited, wait)
          return written
        },
      }
    }
    const single = client as { sendCommand(args: string[]): Promise<unknown> }
    const send: Send = (args) => single.sendCommand(args)
    return {
      cluster: false,
      send,
      async sendAcknowledged(args, _key, wait) {
        // Sent together: node-redis writes both, in order, on its one connection.
        const [written, waited] = await Promise.all([send(args), send(["WAIT", String(wait.replicas), String(wait.timeoutMs)])])
        checked(waited, wait)
        return written
      },
    }
  }
  const refuse = () => Promise.reject(new TypeError("RedisStore needs a node-redis client (sendCommand) or an ioredis client (call)"))
  return { cluster: false, send: refuse, sendAcknowledged: refuse }
}
