/**
 * Issue #34: RedisStore on a Sentinel-backed ioredis client, and the primary killed under load.
 * Per server binary on PATH (redis-server; valkey-server too when there is one), a private
 * primary, its replica and three Sentinels (`redis-server --sentinel`: no redis-sentinel package;
 * support/redis-topology.ts), and:
 *
 * - the store contract over the Sentinel-backed client, in this process;
 * - two app processes A and B (cookie sessions, passkeys, rate limits; waitForReplicas 1/900 ms):
 *   rate limits, a passkey challenge's single use and "sign out everywhere else" across them;
 * - just before the kill, a session revoked and a passkey challenge used (acknowledged by the
 *   replica); then the primary is SIGKILLed while requests of every kind run (bounded loop,
 *   loopback): every answer is documented and none slower than the store's timeout plus slack;
 *   the Sentinels promote the replica, the old primary is restarted (the Sentinels make it the new
 *   one's replica), and the outage is measured;
 * - after: the checks again on A and B (no restart; B's subscriber hears revocations again), the
 *   revocation made before the kill ends the session on a fresh process C, and the challenge used
 *   before it is still refused.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { Redis } from "ioredis"
import { RedisStore } from "../../lib/shared-store/redis.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { seedPasskey, seedUser } from "../webauthn/fixtures.js"
import { ensureBuilt } from "../helpers/build.js"
import { POSTGRES_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { cli, serverKinds, startSentinels, until, type Sentinels } from "./support/redis-topology.js"
import { storeContract } from "./support/redis-store-contract.js"
import { RATE_LIMIT, checkPasskey, checkRateLimit, checkRevocation, expectBounded, failoverLoad, me, outageWindow, passkey, passkeysBackOn, revokedCookie, softAuthenticator, summary } from "./support/redis-failover.js"

const APP = fileURLToPath(new URL("./support/apps/redis-topology-app.js", import.meta.url))
const SECRETS = JSON.stringify(["redis-sentinel-failover-0123456789abcdef012"])
// A replica acknowledges within a millisecond or two on a quiet machine; the bound is generous (under
// the store's 1-second timeout) so that a loaded CI machine does not fail a write that was replicated.
const WAIT = { replicas: 1, timeoutMs: 900 }

describe.each(serverKinds())("$name primary, replica and three Sentinels", (kind) => {
  let topology: Sentinels
  let tables: TestTables
  const clients: Redis[] = []
  const rows: Record<string, string | number>[] = []
  const prefix = `gh-sentinel-${randomBytes(4).toString("hex")}:`
  const soft = softAuthenticator()
  let A: AppProcess
  let B: AppProcess
  let env: Record<string, string>

  const connect = () => {
    const client = new Redis({ sentinels: topology.sentinels, name: topology.name, maxRetriesPerRequest: 1 })
    client.on("error", () => undefined)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    const built = ensureBuilt()
    ;[topology, tables] = await Promise.all([startSentinels(kind), createTables("sentinel")])
    await built
    const erin = await seedUser(tables.adapter, { id: "user-erin", email: "erin@example.com", name: "Erin" })
    await seedPasskey(tables.adapter, erin.id, soft, 0)
    env = {
      GH_SECRETS: SECRETS,
      GH_DB: POSTGRES_URL,
      GH_TABLE_PREFIX: tables.prefix,
      GH_REDIS_SENTINELS: JSON.stringify(topology.sentinels),
      GH_REDIS_NAME: topology.name,
      GH_REDIS_PREFIX: prefix,
      GH_WAIT_REPLICAS: JSON.stringify(WAIT),
      GH_RATE_LIMIT: RATE_LIMIT,
    }
    ;[A, B] = await Promise.all([startApp("A", env, APP), startApp("B", env, APP)])
  })

  afterAll(async () => {
    await stopAll()
    for (const client of clients.splice(0)) client.disconnect()
    await topology?.close()
    await tables?.drop()
    report(`Issue #34: RedisStore through ${kind.name} Sentinels, the primary killed under load`, rows)
  })

  describe("the store contract over a Sentinel-backed ioredis client", () => {
    let n = 0
    storeContract("Sentinel", async () => {
      const scope = `${prefix}contract-${n++}:`
      const make = (): StateStore => RedisStore({ client: connect(), prefix: scope, subscriber: connect(), waitForReplicas: WAIT })
      return [make(), make()]
    })
  })

  test("before the failover: rate limits, a challenge's single use and revocations hold across A and B", async () => {
    await checkRateLimit(A, B)
    await checkPasskey(soft, A, B)
    const delay = await checkRevocation(A, B)
    rows.push({ check: "before: sign out everywhere else on A, read on B", result: `${delay.toFixed(1)} ms` })
  })

  test("the primary killed under load: bounded, documented answers; back on the promoted replica without a restart; nothing acknowledged is lost", async () => {
    const direct = connect()
    const victim = await topology.primaryPort()
    const replica = topology.servers.find((server) => server.port !== victim && topology.servers.indexOf(server) < 2)!.port
    // Just before the kill: a revoked session and a used passkey challenge (a claim), acknowledged by the replica.
    const revoked = await revokedCookie(A.origin)
    const revokedKey = `${prefix}revoked:${revoked.sid}`
    expect(await direct.get(revokedKey)).toBe("1")
    const used = await passkey(soft, A.origin, B.origin)
    expect(used.outcome).toBe("ok")
    const usedKeys = await direct.keys(`${prefix}webauthn-challenge:*`)

    let stop = false
    const load = await failoverLoad(A, B, soft, () => stop)
    const now = () => performance.now() - load.started
    try {
      await until(() => load.answers.filter((answer) => answer.kind === "passkey").length >= 4, "some load before the kill")
      const killedAt = now()
      await topology.server(victim).kill()
      await until(async () => (await topology.primaryPort()) === replica && /role:master/.test(await cli(kind, replica, "INFO", "replication")), "the Sentinels to promote the replica", 60_000)
      const promotedAt = now()
      // The old primary comes back as the new primary's replica (as an operator starts it; the
      // Sentinels would turn it into one anyway, some ten seconds later).
      await topology.server(victim).start(["--replicaof", "127.0.0.1", String(replica)])
      await until(async () => /slave0:.*state=online/.test(await cli(kind, replica, "INFO", "replication")), "the old primary to rejoin as a replica (in sync)", 60_000)
      const replicaBackAt = now()
      await until(() => passkeysBackOn(load.answers, replicaBackAt, [A.origin, B.origin]), "passkeys to work on A and B again", 60_000).catch((error: Error) => {
        // What the apps logged (their store failures, timed) says why.
        const failures = (app: AppProcess) => app.stderr().split("\n").filter((line) => !line.includes("StoreUnavailable")).slice(-30).join("\n")
        throw new Error(`${error.message}\nA:\n${failures(A)}\nB:\n${failures(B)}\nlast answers: ${JSON.stringify(load.answers.slice(-6))}`)
      })
      const backAt = now()
      stop = true
      await load.done
      rows.push(...summary(load.answers).map((row) => ({ check: `during: ${row.kind} (${row.requests} requests)`, result: `${row.outcomes}; slowest ${Number(row["slowest ms"]).toFixed(0)} ms` })))
      rows.push({ check: "outage: kill -> replica promoted (Sentinels)", result: `${(promotedAt - killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> old primary back as replica", result: `${(replicaBackAt - killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> last claim refused (apps)", result: `${outageWindow(load.answers, killedAt).toFixed(0)} ms` })
      rows.push({ check: "outage: kill -> passkeys back on A and B", result: `${(backAt - killedAt).toFixed(0)} ms` })
      expectBounded(load.answers)
    } finally {
      stop = true
      await load.done
    }

    expect(await direct.get(revokedKey)).toBe("1")
    const C = await startApp("C", env, APP)
    expect((await me(C.origin, revoked.cookie)).status).toBe(401)
    await C.stop()
    for (const key of usedKeys) expect(await direct.exists(key)).toBe(1)
    expect(await used.replay!(A.origin)).toEqual({ status: 302, error: "WebAuthnVerificationError", signedIn: false })
  })

  test("after the failover, A and B (not restarted) share the store again: rate limits, a challenge's single use, revocations", async () => {
    await checkRateLimit(A, B)
    await checkPasskey(soft, A, B)
    const delay = await checkRevocation(A, B)
    rows.push({ check: "after: sign out everywhere else on A, read on B", result: `${delay.toFixed(1)} ms` })
  })
})
