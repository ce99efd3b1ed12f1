/**
 * Issue #34: RedisStore on a Redis Cluster (ioredis `Cluster`), and a primary killed under load.
 * Per server binary on PATH (redis-server; valkey-server too when there is one: Debian bookworm
 * has no package and npm no server binary, so usually Redis only), a private cluster of three
 * primaries and three replicas (support/redis-topology.ts) and:
 *
 * - the store contract over a Cluster client, in this process (hash-tagged keys spread over every
 *   primary: no CROSSSLOT; the revocation channel sharded, SSUBSCRIBE), and what `waitForReplicas`
 *   costs a claim (measured, printed, not asserted);
 * - two app processes A and B (cookie sessions, passkeys, rate limits; waitForReplicas 1/900 ms):
 *   rate limits, a passkey challenge's single use and "sign out everywhere else" across them;
 * - just before the kill, a session revoked and passkey challenges used (acknowledged by the
 *   replica); then the primary holding that revocation is SIGKILLed while requests of every kind
 *   run (bounded loop, loopback): every answer is documented (success, CredentialsSignin, 429 or
 *   StoreUnavailable) and none slower than the store's timeout plus slack; the replica is
 *   promoted, the old primary restarted (it comes back as a replica), and the outage measured;
 * - after: the checks again on A and B (no restart), the revocation made before the kill still
 *   ends the session on a fresh process C, and the challenges used before it are still refused.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { Cluster } from "ioredis"
import { createCluster } from "redis"
import { RedisStore } from "../../lib/shared-store/redis.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { seedPasskey, seedUser } from "../webauthn/fixtures.js"
import { ensureBuilt } from "../helpers/build.js"
import { report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { serverKinds, startCluster, until, type Cluster as TestCluster } from "./support/redis-topology.js"
import { storeContract } from "./support/redis-store-contract.js"
import { RATE_LIMIT, checkPasskey, checkRateLimit, checkRevocation, expectBounded, failoverLoad, me, outageWindow, passkey, passkeysBackOn, revokedCookie, softAuthenticator, summary } from "./support/redis-failover.js"

const APP = fileURLToPath(new URL("./support/apps/redis-topology-app.js", import.meta.url))
const SECRETS = JSON.stringify(["redis-cluster-failover-0123456789abcdef0123"])
// A replica acknowledges within a millisecond or two on a quiet machine; the bound is generous (under
// the store's 1-second timeout) so that a loaded CI machine does not fail a write that was replicated.
const WAIT = { replicas: 1, timeoutMs: 900 }

describe.each(serverKinds())("$name Cluster (3 primaries, 3 replicas)", (kind) => {
  let cluster: TestCluster
  let tables: TestTables
  const clients: Cluster[] = []
  const nodeRedis: Array<ReturnType<typeof createCluster>> = []
  const rows: Record<string, string | number>[] = []
  const prefix = `gh-cluster-${randomBytes(4).toString("hex")}:`
  const soft = softAuthenticator()
  let A: AppProcess
  let B: AppProcess
  let env: Record<string, string>

  const connect = (options: ConstructorParameters<typeof Cluster>[1] = {}) => {
    const client = new Cluster(cluster.nodes, { ...options, redisOptions: { maxRetriesPerRequest: 1 } })
    client.on("error", () => undefined)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    const built = ensureBuilt()
    ;[cluster, tables] = await Promise.all([startCluster(kind), createTables("cluster")])
    await built
    const erin = await seedUser(tables.adapter, { id: "user-erin", email: "erin@example.com", name: "Erin" })
    await seedPasskey(tables.adapter, erin.id, soft, 0)
    env = {
      GH_SECRETS: SECRETS,
      GH_DB: process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
      GH_TABLE_PREFIX: tables.prefix,
      GH_REDIS_CLUSTER: JSON.stringify(cluster.nodes),
      GH_REDIS_PREFIX: prefix,
      GH_WAIT_REPLICAS: JSON.stringify(WAIT),
      GH_RATE_LIMIT: RATE_LIMIT,
    }
    ;[A, B] = await Promise.all([startApp("A", env, APP), startApp("B", env, APP)])
  })

  afterAll(async () => {
    await stopAll()
    for (const client of clients.splice(0)) client.disconnect()
    await Promise.allSettled(nodeRedis.splice(0).map((client) => client.destroy()))
    await cluster?.close()
    await tables?.drop()
    report(`Issue #34: RedisStore on a ${kind.name} Cluster, a primary killed under load`, rows)
  })

  describe("the store contract over an ioredis Cluster", () => {
    let n = 0
    storeContract("Cluster", async () => {
      const scope = `${prefix}contract-${n++}:`
      const make = (): StateStore => RedisStore({ client: connect(), prefix: scope, subscriber: connect({ shardedSubscribers: true }) })
      return [make(), make()]
    })

    let m = 0
    storeContract("node-redis createCluster", async () => {
      const scope = `${prefix}node-redis-${m++}:`
      const make = async (): Promise<StateStore> => {
        const client = createCluster({ rootNodes: cluster.nodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })) })
        client.on("error", () => undefined)
        nodeRedis.push(client)
        await client.connect()
        const subscriber = client.duplicate()
        subscriber.on("error", () => undefined)
        nodeRedis.push(subscriber)
        await subscriber.connect()
        return RedisStore({ client, prefix: scope, subscriber })
      }
      return [await make(), await make()]
    })

    test("hash tags: a user's keys share a slot; waitForReplicas on a cluster is acknowledged by the replica", async () => {
      const direct = connect()
      const slot = async (key: string) => Number(await direct.call("CLUSTER", "KEYSLOT", key))
      const user = "user-with-a-long-id"
      expect(new Set([await slot(`${prefix}sessions:{${user}}`), await slot(`${prefix}notbefore:{${user}}`), await slot(`${prefix}spared:{${user}}:sid-1`)]).size).toBe(1)
      const store = RedisStore({ client: direct, prefix, waitForReplicas: WAIT })
      expect(await store.claim(`acknowledged:${randomBytes(4).toString("hex")}`, 60)).toBe(true)
      await store.revokeUser!("user-acknowledged", Date.now(), 60, "sid-spared")
      // No replica can acknowledge 2: the write fails rather than answer unreplicated.
      const greedy = RedisStore({ client: direct, prefix, waitForReplicas: { replicas: 2, timeoutMs: 50 } })
      await expect(greedy.claim(`greedy:${randomBytes(4).toString("hex")}`, 60)).rejects.toThrow(/1 of 2 replicas acknowledged/)
      // A Cluster subscriber without sharded subscribers would send SSUBSCRIBE to any node: refused, named.
      await expect(RedisStore({ client: direct, prefix, subscriber: connect() }).subscribe!(() => undefined)).rejects.toThrow(/shardedSubscribers: true/)
    })

    test("what waitForReplicas costs a claim (400 claims each way, interleaved; printed)", async () => {
      const direct = connect()
      const stores = [RedisStore({ client: direct, prefix }), RedisStore({ client: direct, prefix, waitForReplicas: WAIT })]
      const samples: [number[], number[]] = [[], []]
      for (let i = 0; i < 850; i++) {
        const which = i % 2
        const start = performance.now()
        await stores[which]!.claim(`cost:${randomBytes(6).toString("hex")}`, 60)
        if (i >= 50) samples[which]!.push(performance.now() - start) // the first 50: warm-up
      }
      const [without, withWait] = samples.map((list) => {
        list.sort((a, b) => a - b)
        return { median: list[Math.floor(list.length / 2)]!, p99: list[Math.floor(list.length * 0.99)]! }
      }) as [{ median: number; p99: number }, { median: number; p99: number }]
      rows.push({ check: "claim, no waitForReplicas", result: `median ${without.median.toFixed(3)} ms, p99 ${without.p99.toFixed(2)} ms` })
      rows.push({ check: "claim, waitForReplicas 1/900 ms", result: `median ${withWait.median.toFixed(3)} ms, p99 ${withWait.p99.toFixed(2)} ms (${(withWait.median - without.median).toFixed(3)} ms median)` })
      expect(samples[1]).toHaveLength(400)
    })
  })

  test("before the failover: rate limits, a challenge's single use and revocations hold across A and B", async () => {
    await checkRateLimit(A, B)
    await checkPasskey(soft, A, B)
    const delay = await checkRevocation(A, B)
    rows.push({ check: "before: sign out everywhere else on A, read on B", result: `${delay.toFixed(1)} ms` })
  })

  test("a primary killed under load: bounded, documented answers; back on the new primary without a restart; nothing acknowledged is lost", async () => {
    const direct = connect()
    // The victim: the primary of the revocation channel's slot (so the sharded subscribers must
    // follow it to the replica). Just before the kill, on it: a revoked session and used passkey
    // challenges (claims), both acknowledged by its replica.
    const slotOf = async (key: string) => Number(await direct.call("CLUSTER", "KEYSLOT", key))
    const victim = await cluster.primaryOf(await slotOf(`${prefix}revocations`))
    let revoked = await revokedCookie(A.origin)
    for (let i = 0; i < 24 && (await cluster.primaryOf(await slotOf(`${prefix}revoked:${revoked.sid}`))) !== victim; i++) revoked = await revokedCookie(A.origin)
    const revokedKey = `${prefix}revoked:${revoked.sid}`
    expect(await cluster.primaryOf(await slotOf(revokedKey))).toBe(victim)
    expect(await direct.get(revokedKey)).toBe("1")
    const used: Array<{ replay: (origin: string) => Promise<{ status: number; error: string | null; signedIn: boolean }>; key: string }> = []
    // KEYS on a Cluster asks one node: look on every primary.
    const claimed = async () => (await Promise.all(direct.nodes("master").map((node) => node.keys(`${prefix}webauthn-challenge:*`)))).flat()
    const before = new Set(await claimed())
    for (let i = 0; i < 24 && used.length < 2; i++) {
      const done = await passkey(soft, A.origin, B.origin)
      expect(done.outcome).toBe("ok")
      const all = await claimed()
      const key = all.find((candidate) => !before.has(candidate))
      if (key && (await cluster.primaryOf(await slotOf(key))) === victim) used.push({ replay: done.replay!, key })
      for (const candidate of all) before.add(candidate)
    }
    expect(used.length).toBeGreaterThan(0)

    let stop = false
    const load = await failoverLoad(A, B, soft, () => stop)
    const now = () => performance.now() - load.started
    try {
      await until(() => load.answers.filter((answer) => answer.kind === "passkey").length >= 4, "some load before the kill")
      const replica = await cluster.replicaOf(victim)
      const killedAt = now()
      await cluster.server(victim).kill()
      const slot = await slotOf(revokedKey)
      await until(async () => (await cluster.primaryOf(slot)) === replica && (await cluster.healthy(slot)), "the replica's promotion", 60_000)
      const promotedAt = now()
      // The old primary comes back (empty) and rejoins as the new primary's replica.
      await cluster.server(victim).start()
      await until(async () => /slave0:.*state=online/.test(await cluster.info(replica, "replication")), "the old primary to rejoin as a replica (in sync)", 60_000)
      const replicaBackAt = now()
      // Run on until a passkey (a claim: the store itself) has worked on both A and B since then.
      await until(() => passkeysBackOn(load.answers, replicaBackAt, [A.origin, B.origin]), "passkeys to work on A and B again", 60_000).catch((error: Error) => {
        // What the apps logged (their store failures, timed) says why.
        const failures = (app: AppProcess) => app.stderr().split("\n").filter((line) => !line.includes("StoreUnavailable")).slice(-30).join("\n")
        throw new Error(`${error.message}\nA:\n${failures(A)}\nB:\n${failures(B)}\nlast answers: ${JSON.stringify(load.answers.slice(-6))}`)
      })
      const backAt = now()
      stop = true
      await load.done
      rows.push(...summary(load.answers).map((row) => ({ check: `during: ${row.kind} (${row.requests} requests)`, result: `${row.outcomes}; slowest ${Number(row["slowest ms"]).toFixed(0)} ms` })))
      rows.push({ check: "outage: kill -> replica promoted (cluster)", result: `${(promotedAt - killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> old primary back as replica", result: `${(replicaBackAt - killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> last claim refused (apps)", result: `${outageWindow(load.answers, killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> passkeys back on A and B", result: `${(backAt - killedAt).toFixed(0)} ms` })
      rows.push({ check: "killed primary held", result: `the revocation channel, a revocation, ${used.length} used challenge(s)` })
      expectBounded(load.answers)
    } finally {
      stop = true
      await load.done
    }

    // Nothing acknowledged before the kill is lost: the revocation (read by a fresh process, whose
    // memory knows nothing) and the used challenges (replayed).
    expect(await direct.get(revokedKey)).toBe("1")
    const C = await startApp("C", env, APP)
    expect((await me(C.origin, revoked.cookie)).status).toBe(401)
    for (const { replay, key } of used) {
      expect(await direct.exists(key)).toBe(1)
      expect(await replay(A.origin)).toEqual({ status: 302, error: "WebAuthnVerificationError", signedIn: false })
    }
    await C.stop()
  })

  test("after the failover, A and B (not restarted) share the store again: rate limits, a challenge's single use, revocations", async () => {
    await checkRateLimit(A, B)
    await checkPasskey(soft, A, B)
    const delay = await checkRevocation(A, B)
    rows.push({ check: "after: sign out everywhere else on A, read on B", result: `${delay.toFixed(1)} ms` })
  })
})
