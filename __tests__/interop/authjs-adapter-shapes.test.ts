/**
 * Issue #26, interop: records read back from Gatehouse's adapters exactly as the Auth.js adapter
 * contract wrote them, on SQLite, PostgreSQL and MariaDB as in memory. Auth.js's own adapter suite
 * (`@auth/adapter-test`, not published; its checks are restated here) compares with `toEqual`,
 * for which a field set to `null` differs from one left out: Gatehouse's extra fields (a
 * session's createdAt, lastSeenAt, userAgent, ip; a passkey's name, createdAt, lastUsedAt) are
 * left out unless they hold a value. And an Auth.js app whose `session` callback spreads the
 * session does not send the client's stored address or user agent to the browser.
 */
import { createHash, randomUUID } from "node:crypto"
import type { AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import GitHub from "@auth/core/providers/github"
import type { Adapter, AdapterAuthenticator, AdapterSession, AdapterUser } from "../../lib/adapters.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { SECRET, USERS, findCookie, makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"
import { callAuthjs, quietLogger } from "./support.js"

const DAY = 24 * 60 * 60 * 1000
const SESSION_COOKIE = "authjs.session-token"
/** Whole seconds: MariaDB's DATETIME keeps no milliseconds. */
const at = (offset: number) => new Date(Math.floor((Date.now() + offset) / 1000) * 1000)

interface Engine {
  adapter: () => Adapter
  open: () => Promise<void>
  close: () => Promise<void>
}

function sqlEngine(name: DatabaseName): Engine {
  const prefix = uniquePrefix(`shape_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance
  return {
    adapter: () => adapter,
    open: async () => {
      adapter = await openTestDatabase(name, prefix)
    },
    close: () => closeTestDatabase(adapter, prefix),
  }
}

function memoryEngine(): Engine {
  const adapter = MemoryAdapter()
  return { adapter: () => adapter, open: async () => undefined, close: async () => undefined }
}

const ENGINES: Array<[string, () => Engine]> = [
  ["memory", memoryEngine],
  ["sqlite", () => sqlEngine("sqlite")],
  ["postgres", () => sqlEngine("postgres")],
  ["mariadb", () => sqlEngine("mariadb")],
]

describe.each(ENGINES)("%s: the Auth.js adapter contract's records read back as written", (_name, make) => {
  const engine = make()
  const adapter = () => engine.adapter() as Required<Adapter>
  let user: AdapterUser

  beforeAll(async () => {
    await engine.open()
    user = await adapter().createUser({ id: randomUUID(), name: "Fill Murray", email: `fill-${randomUUID().slice(0, 8)}@murray.example`, image: "https://img.example/fill.png", emailVerified: at(0) })
  })
  afterAll(() => engine.close())

  it("a user: getUser, getUserByEmail and getUserByAccount return it equal", async () => {
    expect(await adapter().getUser(user.id)).toEqual(user)
    expect(await adapter().getUserByEmail(user.email)).toEqual(user)
    const account = { userId: user.id, type: "oauth" as const, provider: "github", providerAccountId: randomUUID(), access_token: randomUUID(), token_type: "bearer" as const, scope: "user" }
    await adapter().linkAccount(account)
    expect(await adapter().getUserByAccount({ provider: "github", providerAccountId: account.providerAccountId })).toEqual(user)
  })

  it("a session created as Auth.js creates it: getSessionAndUser gives { user, session } equal to what was written, with no null extras", async () => {
    const session: AdapterSession = { sessionToken: randomUUID(), userId: user.id, expires: at(7 * DAY) }
    expect(await adapter().createSession({ ...session })).toEqual(session)
    const found = await adapter().getSessionAndUser(session.sessionToken)
    expect(found).toEqual({ user, session })
    expect(Object.keys(found!.session).sort()).toEqual(["expires", "sessionToken", "userId"])
    // updateSession moves the expiry and returns the session, again without null extras.
    const expires = at(30 * DAY)
    const updated = await adapter().updateSession({ sessionToken: session.sessionToken, expires })
    expect(updated).toEqual({ ...session, expires })
    expect(await adapter().deleteSession(session.sessionToken)).toEqual({ ...session, expires })
    expect(await adapter().getSessionAndUser(session.sessionToken)).toBeNull()
  })

  it("a session Gatehouse records with its facts: listSessionsByUserId has them; getSessionAndUser gives when it started, never the address or user agent", async () => {
    const sessionToken = randomUUID()
    const createdAt = at(-60_000)
    await adapter().createSession({ sessionToken, userId: user.id, expires: at(DAY), createdAt, lastSeenAt: createdAt, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", ip: "203.0.113.7" })
    const listed = (await adapter().listSessionsByUserId(user.id)).find((session) => session.sessionToken === sessionToken)
    expect(listed).toEqual({ sessionToken, userId: user.id, expires: at(DAY), createdAt, lastSeenAt: createdAt, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", ip: "203.0.113.7" })
    const found = await adapter().getSessionAndUser(sessionToken)
    expect(found?.session).toEqual({ sessionToken, userId: user.id, expires: at(DAY), createdAt })
  })

  it("a passkey created as Auth.js creates it: getAuthenticator, listAuthenticatorsByUserId and updateAuthenticatorCounter return it equal", async () => {
    const authenticator: AdapterAuthenticator = {
      credentialID: randomUUID(),
      userId: user.id,
      providerAccountId: randomUUID(),
      credentialPublicKey: createHash("sha256").update("key").digest("base64"),
      counter: 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "usb,nfc",
    }
    expect(await adapter().createAuthenticator({ ...authenticator })).toEqual(authenticator)
    expect(await adapter().getAuthenticator(authenticator.credentialID)).toEqual(authenticator)
    expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([authenticator])
    expect(await adapter().updateAuthenticatorCounter(authenticator.credentialID, 2)).toEqual({ ...authenticator, counter: 2 })
    expect(await adapter().deleteAuthenticator(authenticator.credentialID)).toEqual({ ...authenticator, counter: 2 })
  })

  it("a verification token is used once, read back equal", async () => {
    const token = { identifier: user.email, token: createHash("sha256").update(randomUUID()).digest("hex"), expires: at(15 * 60_000) }
    await adapter().createVerificationToken({ ...token })
    expect(await adapter().useVerificationToken({ identifier: token.identifier, token: token.token })).toEqual(token)
    expect(await adapter().useVerificationToken({ identifier: token.identifier, token: token.token })).toBeNull()
  })

  it("an Auth.js app whose session callback spreads the session does not send the address or user agent Gatehouse stored", async () => {
    // Gatehouse's router signs alice in: its session row holds this client's address and user agent.
    const app = makeApp(testConfig({ adapter: engine.adapter(), session: { strategy: "database" } }))
    const agent = request.agent(app)
    agent.set("User-Agent", "Mozilla/5.0 (Macintosh) Safari/17.0")
    const signedIn = await signInAs(agent, "alice")
    const token = findCookie(signedIn, SESSION_COOKIE)!.value!
    const stored = (await adapter().listSessionsByUserId(USERS.alice!.id!)).find((session) => session.sessionToken === token)
    expect(stored?.userAgent).toContain("Safari")
    expect(stored?.ip).toBeTruthy()

    const log = quietLogger()
    const config: AuthjsConfig = {
      adapter: engine.adapter() as unknown as AuthjsAdapter,
      providers: [GitHub({ clientId: "interop-client", clientSecret: "interop-secret" })],
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      session: { strategy: "database" },
      logger: log.logger,
      // The common mistake: the whole session object, spread into what the browser gets.
      callbacks: { session: ({ session }) => ({ ...session }) },
    }
    const call = await callAuthjs(config, "/auth/session", new Map(), { cookie: `${SESSION_COOKIE}=${token}` })
    expect(call.status).toBe(200)
    const sent = JSON.stringify(call.json)
    // The spread passed the adapter's session through (its userId is there), without the facts.
    expect(call.json).toMatchObject({ user: { email: USERS.alice!.email }, userId: USERS.alice!.id })
    for (const field of ["userAgent", "ip", "lastSeenAt"]) expect(sent).not.toContain(`"${field}"`)
    expect(sent).not.toContain("Safari")
    expect(sent).not.toContain(stored!.ip!)
    expect(log.errors).toEqual([])
  })
})
