/**
 * Issue #17 on database sessions: once the provider refuses the refresh token, every read of the
 * user's database sessions (req.auth, GET /auth/session, the `session` callback's input) carries
 * `error: "RefreshTokenError"`, on both app instances (each with its own configuration, so its
 * own caches; one database, one Redis), until the user signs in with that provider again. Real
 * oidc-provider (refresh token revoked through its RFC 7009 endpoint), SQLite (one database file,
 * a connection per instance) and PostgreSQL, Redis.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { jest } from "@jest/globals"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { AuthConfig, Session } from "../../lib/types.js"
import { makeApp, request, reserve, testConfig, type Agent } from "../helpers/app.js"
import { DATABASES } from "../helpers/databases.js"
import { CLIENT_ID, CLIENT_SECRET, cookieHeader, cookieJar, oauthSuite, oidc, signInFlow, startSite, type Site } from "../oauth/support.js"
import { redisStore } from "../sessions/setups.js"
import { countRefreshes, idpConfiguration, tokenRoute } from "./support.js"

oauthSuite()
jest.setTimeout(60_000)

interface Database {
  tablePrefix: string
  /** A connection of its own, as another process would have. */
  connect(): SqlAdapterInstance
  cleanup(): Promise<void>
}

function sqliteFile(): Database {
  const dir = mkdtempSync(join(tmpdir(), "gh17-db-"))
  const url = `sqlite:${join(dir, "app.db")}`
  return { tablePrefix: "gh17_", connect: () => SqlAdapter(url, { tablePrefix: "gh17_" }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
}

function postgres(): Database {
  const tablePrefix = `t_gh17_${randomBytes(4).toString("hex")}_`
  return {
    tablePrefix,
    connect: () => SqlAdapter(DATABASES.postgres, { tablePrefix }),
    cleanup: async () => {
      const adapter = SqlAdapter(DATABASES.postgres, { tablePrefix })
      await dropTables(adapter.db, { tablePrefix })
      await adapter.close()
    },
  }
}

const PROVIDER = { authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } } }

describe.each([
  ["SQLite", sqliteFile],
  ["PostgreSQL", postgres],
])("database sessions on %s: a refused refresh shows on every session read", (_name, database) => {
  let db: Database
  const connections: SqlAdapterInstance[] = []
  const closing: Array<() => Promise<void>> = []

  beforeEach(() => {
    db = database()
  })
  afterEach(async () => {
    for (const close of closing.splice(0)) await close()
    for (const connection of connections.splice(0)) await connection.close()
    await db.cleanup()
  })

  async function connect(): Promise<SqlAdapterInstance> {
    const connection = db.connect()
    connections.push(connection)
    return connection
  }

  /** Two instances of the app on one database and one Redis prefix; each records what its `session` callback received. */
  async function instances() {
    const prefix = `gh17db:${randomBytes(4).toString("hex")}:`
    const [redisA, redisB] = [await redisStore(prefix), await redisStore(prefix)]
    closing.push(redisA.close, redisB.close)
    const [adapterA, adapterB] = [await connect(), await connect()]
    await migrate(adapterA.db, { tablePrefix: db.tablePrefix })
    const seen = { A: [] as unknown[], B: [] as unknown[] }
    const callbacks = (name: "A" | "B"): AuthConfig["callbacks"] => ({
      session: ({ session }) => {
        seen[name].push((session as Session).error)
        return session
      },
    })
    const site = await startSite({
      configuration: idpConfiguration(),
      providers: (idp) => [oidc(idp, PROVIDER)],
      config: () => ({ adapter: adapterA, store: redisA.store, session: { strategy: "database" }, callbacks: callbacks("A") }),
    })
    tokenRoute(site.app, site.config)
    const second = await reserve()
    closing.push(second.close)
    const configB = testConfig({ providers: [oidc(site.idp, PROVIDER)], adapter: adapterB, store: redisB.store, session: { strategy: "database" }, callbacks: callbacks("B") })
    const appB = makeApp(configB)
    tokenRoute(appB, configB)
    second.attach(appB)
    return { site, A: site.url, B: second.url, adapterA, seen }
  }

  async function signIn(site: Site, agent: Agent = site.agent()): Promise<string> {
    const { callback } = await signInFlow(site, agent)
    expect(callback.status).toBe(302)
    return cookieHeader(cookieJar(callback))
  }

  const sessionAt = async (origin: string, cookie: string) => (await request(origin).get("/auth/session").set("Cookie", cookie)).body as Session | null
  const authAt = async (origin: string, cookie: string) => (await request(origin).get("/").set("Cookie", cookie)).body.auth as Session | null

  async function storedRefreshToken(adapter: SqlAdapterInstance): Promise<string | null> {
    const rows = await adapter.listAccountsByUserId!((await adapter.getUserByEmail("alice@example.com"))!.id)
    return rows.find((row) => row.provider === "idp")?.refresh_token ?? null
  }

  test("revoked at the provider: RefreshTokenError, then both instances' reads carry the error until a new sign-in with the provider", async () => {
    const { site, A, B, adapterA, seen } = await instances()
    const refreshes = countRefreshes(site)
    const laptop = await signIn(site)
    const phone = await signIn(site)
    // Both instances have read (and cached) both sessions: no error yet.
    for (const origin of [A, B]) for (const cookie of [laptop, phone]) expect((await sessionAt(origin, cookie))?.error).toBeUndefined()

    const refreshToken = await storedRefreshToken(adapterA)
    expect(refreshToken).toEqual(expect.any(String))
    const revoked = await fetch(`${site.idp.issuer}/token/revocation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}` },
      body: new URLSearchParams({ token: refreshToken as string, token_type_hint: "refresh_token" }),
    })
    expect(revoked.status).toBe(200)

    const refused = await request(A).get("/token?skew=3600").set("Cookie", laptop)
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("RefreshTokenError")
    expect(refreshes).toEqual({ count: 1, refused: 1 })
    // Kept with the account: the refresh token is gone from the row.
    expect(await storedRefreshToken(adapterA)).toBeNull()

    seen.A.length = 0
    seen.B.length = 0
    for (const origin of [B, A]) {
      for (const cookie of [laptop, phone]) {
        const session = await sessionAt(origin, cookie)
        expect(session?.user?.email).toBe("alice@example.com")
        expect(session?.error).toBe("RefreshTokenError")
        expect((await authAt(origin, cookie))?.error).toBe("RefreshTokenError")
      }
    }
    expect(seen.A.length).toBeGreaterThan(0)
    expect(seen.B.length).toBeGreaterThan(0)
    expect([...seen.A, ...seen.B].every((error) => error === "RefreshTokenError")).toBe(true)
    // The other instance refuses too, without asking the provider.
    expect((await request(B).get("/token?skew=3600").set("Cookie", phone)).body.error).toBe("RefreshTokenError")
    expect(refreshes.count).toBe(1)

    // The user signs in with the provider again (on the phone): every session is clear, on both instances.
    const again = await signIn(site, site.agent())
    for (const origin of [A, B]) {
      for (const cookie of [again, laptop]) expect((await sessionAt(origin, cookie))?.error).toBeUndefined()
    }
    expect(await storedRefreshToken(adapterA)).toEqual(expect.any(String))
    const token = await request(B).get("/token?skew=3600").set("Cookie", again)
    expect(token.status).toBe(200)
    expect(refreshes).toEqual({ count: 2, refused: 1 })
  })
})
