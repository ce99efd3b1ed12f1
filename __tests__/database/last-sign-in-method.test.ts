/**
 * Issue #24 (problem 10): removing a provider and a passkey at the same moment. The user has two
 * ways to sign in, an OpenID Connect account and a passkey, and two signed-in devices, each on its
 * own app instance with its own connection pool to the same database (two processes, as far as
 * the database can tell). One device unlinks the provider (the account page's
 * `POST account/unlink`, or the `unlinkAccount` server helper on an app's route) while the other
 * removes the passkey. Before the fix both passed the "not the last way in" check (on PostgreSQL
 * 9 tries of 10) and the user was left with no way in. Now exactly one removal happens, the other
 * is `LastSignInMethod` (409), and one way in is left, every time: on PostgreSQL and MariaDB (a
 * row lock on the user), on SQLite and with the memory adapter (one adapter for both instances).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { Adapter } from "../../lib/adapters.js"
import { unlinkAccount } from "../../lib/index.js"
import OIDC from "../../lib/providers/oidc.js"
import Passkey from "../../lib/providers/passkey.js"
import { USERS, credentials, csrfToken, makeApp, request, serve, signInAs, testConfig, type Agent } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"

jest.setTimeout(180_000)

const ROUNDS = 12
const ALICE = USERS.alice!.id as string
type Engine = "memory" | DatabaseName
const ENGINES: Engine[] = ["postgres", "mariadb", "sqlite", "memory"]

type FullAdapter = Required<Omit<Adapter, "lockUser">>

/** One app instance on a loopback port, with the server helper `unlinkAccount` on POST /settings/unlink. */
async function instance(adapter: Adapter) {
  const config = testConfig({
    adapter,
    providers: [credentials(), OIDC({ id: "idp", name: "Test IdP", issuer: "https://idp.example", clientId: "c", clientSecret: "s" }), Passkey()],
  })
  const app = makeApp(config)
  app.post("/settings/unlink", async (req, res) => {
    try {
      await unlinkAccount(req, res, config, String(req.query.provider))
      res.json({ ok: true })
    } catch (error) {
      res.status(409).json({ error: { type: (error as { type?: string }).type } })
    }
  })
  return serve(app)
}

/** Alice signed in on the instance at `url` (a device of hers). */
async function device(url: string): Promise<Agent> {
  const agent = request.agent(url)
  const res = await signInAs(agent, "alice")
  expect(res.status).toBe(302)
  expect(String(res.headers.location)).not.toContain("error=")
  return agent
}

/** Leaves Alice with exactly an OIDC account and a passkey (nothing else). */
async function twoWaysIn(adapter: FullAdapter, round: number): Promise<string> {
  for (const passkey of await adapter.listAuthenticatorsByUserId(ALICE)) await adapter.deleteAuthenticator(passkey.credentialID)
  for (const account of await adapter.listAccountsByUserId(ALICE)) await adapter.unlinkAccount(account)
  const credentialID = `alice-key-${round}`
  await adapter.linkAccount({ type: "oidc", provider: "idp", providerAccountId: `alice-at-idp-${round}`, userId: ALICE })
  await adapter.linkAccount({ type: "webauthn", provider: "passkey", providerAccountId: credentialID, userId: ALICE })
  await adapter.createAuthenticator({
    credentialID,
    userId: ALICE,
    providerAccountId: credentialID,
    credentialPublicKey: Buffer.from(`key-${round}`).toString("base64"),
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal",
  })
  return credentialID
}

async function waysIn(adapter: FullAdapter): Promise<number> {
  const passkeys = await adapter.listAuthenticatorsByUserId(ALICE)
  const others = (await adapter.listAccountsByUserId(ALICE)).filter((account) => account.type !== "webauthn")
  return passkeys.length + others.length
}

describe.each(ENGINES)("removing two ways in at once on %s", (engine) => {
  const prefix = uniquePrefix(`last_${engine.slice(0, 2)}`)
  const pools: SqlAdapterInstance[] = []
  let adapters: [FullAdapter, FullAdapter]
  let servers: Array<Awaited<ReturnType<typeof serve>>> = []

  beforeAll(async () => {
    if (engine === "postgres" || engine === "mariadb") {
      // Two instances, two connection pools: they share only the database.
      pools.push(await openTestDatabase(engine, prefix), await openTestDatabase(engine, prefix))
      adapters = [pools[0] as unknown as FullAdapter, pools[1] as unknown as FullAdapter]
    } else {
      // SQLite in memory and the memory adapter live in one process: one adapter for both instances.
      const shared = engine === "sqlite" ? await openTestDatabase(engine, prefix) : MemoryAdapter()
      if (engine === "sqlite") pools.push(shared as SqlAdapterInstance)
      adapters = [shared as unknown as FullAdapter, shared as unknown as FullAdapter]
    }
    servers = [await instance(adapters[0]), await instance(adapters[1])]
  })
  afterAll(async () => {
    for (const server of servers) {
      server.server.closeAllConnections()
      await server.close()
    }
    if (pools[0]) await closeTestDatabase(pools[0], prefix)
    for (const pool of pools.slice(1)) await pool.close()
  })

  it(`${ROUNDS} times: exactly one of the two removals happens, the other is LastSignInMethod, and one way in is left`, async () => {
    const [phone, laptop] = [await device(servers[0]!.url), await device(servers[1]!.url)]
    const outcomes: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const credentialID = await twoWaysIn(adapters[0], round)
      const [phoneToken, laptopToken] = [await csrfToken(phone), await csrfToken(laptop)]
      const viaHelper = round % 2 === 1
      const unlink = viaHelper
        ? phone.post("/settings/unlink?provider=idp")
        : phone.post("/auth/account/unlink").type("form").set("Accept", "application/json").send({ csrfToken: phoneToken, provider: "idp" })
      const removePasskey = laptop.post("/auth/account/passkey-remove").type("form").set("Accept", "application/json").send({ csrfToken: laptopToken, credentialID })
      const answers = await Promise.all([unlink, removePasskey])
      const results = answers.map((answer) => (answer.status === 200 ? "removed" : `${answer.status} ${answer.body?.error?.type}`))
      outcomes.push(`${results.join(" / ")} / ${await waysIn(adapters[0])} left`)
    }
    const expected = new Set(["removed / 409 LastSignInMethod / 1 left", "409 LastSignInMethod / removed / 1 left"])
    // Every round that went otherwise, listed (before the fix: "removed / removed / 0 left").
    expect(outcomes.filter((outcome) => !expected.has(outcome))).toEqual([])
  })
})
