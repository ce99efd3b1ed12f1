/**
 * `@auth/pg-adapter` as Gatehouse's `adapter` (database strategy), against PostgreSQL: the same
 * HTTP flow runs on it and on Gatehouse's own SqlAdapter, and each step is checked in that
 * adapter's own tables (camelCase columns, SERIAL ids for @auth/pg-adapter).
 *
 * @auth/pg-adapter's ids are integers, so `authorize` returns the stored user's id as a numeric
 * string (as an app whose sign-up went through the adapter would).
 */
import { randomUUID } from "node:crypto"
import type { Express } from "express"
import PostgresAdapter from "@auth/pg-adapter"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig, Session } from "../../lib/types.js"
import Credentials from "../../lib/providers/credentials.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { SECRET, csrfToken, findCookie, isCleared, makeApp, request, type Agent } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, sqlBackDoor, uniquePrefix } from "../helpers/databases.js"
import type { AuthConfig as AuthjsConfig } from "@auth/core"
import Resend from "@auth/core/providers/resend"
import type { EmailProviderSendVerificationRequestParams } from "@auth/core/providers/email"
import { callAuthjs, openAuthjsSchema, quietLogger, type AuthjsSchema, type Jar } from "./support.js"

const SESSION_COOKIE = "authjs.session-token"
const DAY = 24 * 60 * 60 * 1000

interface Person {
  name: string
  email: string
  image: string | null
  /** When the owner proved the address (unproven when absent). */
  emailVerified?: Date | null
}

/** One adapter under test, with plain-SQL access to its own tables (not through the adapter). */
interface Backend {
  /** What the adapter's user ids look like. */
  idPattern: RegExp
  adapter(): Adapter
  open(): Promise<void>
  close(): Promise<void>
  /** Stores a user through the adapter, as an app's sign-up would; returns its id as a string. */
  register(person: Person): Promise<string>
  session(token: string): Promise<{ userId: string; expires: Date } | null>
  setExpiry(token: string, expires: Date): Promise<void>
  sessionTokensOf(userId: string): Promise<string[]>
  userIdsByEmail(email: string): Promise<string[]>
  account(provider: string, providerAccountId: string): Promise<{ userId: string } | null>
}

function authjsBackend(): Backend {
  let db: AuthjsSchema
  let adapter: Adapter
  return {
    idPattern: /^[1-9]\d*$/,
    adapter: () => adapter,
    async open() {
      db = await openAuthjsSchema()
      // No cast: @auth/core's Adapter type is assignable to Gatehouse's (checked by tsc).
      adapter = PostgresAdapter(db.pool)
    },
    close: () => db.close(),
    async register(person) {
      const created = await adapter.createUser!({ id: "ignored-by-a-serial-id", emailVerified: null, ...person })
      expect(typeof created.id).toBe("number") // SERIAL: the id is the database's, not ours
      return String(created.id)
    },
    async session(token) {
      const { rows } = await db.pool.query(`SELECT "userId", expires FROM sessions WHERE "sessionToken" = $1`, [token])
      return rows[0] ? { userId: String(rows[0].userId), expires: rows[0].expires as Date } : null
    },
    async setExpiry(token, expires) {
      const { rowCount } = await db.pool.query(`UPDATE sessions SET expires = $2 WHERE "sessionToken" = $1`, [token, expires])
      expect(rowCount).toBe(1)
    },
    async sessionTokensOf(userId) {
      const { rows } = await db.pool.query(`SELECT "sessionToken" FROM sessions WHERE "userId" = $1 ORDER BY "sessionToken"`, [Number(userId)])
      return rows.map((row) => String(row.sessionToken))
    },
    async userIdsByEmail(email) {
      const { rows } = await db.pool.query(`SELECT id FROM users WHERE email = $1`, [email])
      return rows.map((row) => String(row.id))
    },
    async account(provider, providerAccountId) {
      const { rows } = await db.pool.query(`SELECT "userId" FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`, [provider, providerAccountId])
      if (rows.length > 1) throw new Error(`${rows.length} accounts for ${provider}/${providerAccountId}`)
      return rows[0] ? { userId: String(rows[0].userId) } : null
    },
  }
}

function gatehouseBackend(): Backend {
  const prefix = uniquePrefix("interop_pgflow")
  let adapter: SqlAdapterInstance
  const table = (name: string) => `${prefix}${name}`
  return {
    idPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    adapter: () => adapter,
    async open() {
      adapter = await openTestDatabase("postgres", prefix)
    },
    close: () => closeTestDatabase(adapter, prefix),
    async register(person) {
      const created = await adapter.createUser({ id: randomUUID(), emailVerified: null, ...person })
      return created.id
    },
    session: (token) => sqlBackDoor(adapter, prefix).session(token),
    async setExpiry(token, expires) {
      const result = await adapter.db.updateTable(table("sessions")).set({ expires }).where("session_token", "=", token).executeTakeFirst()
      expect(Number(result.numUpdatedRows)).toBe(1)
    },
    async sessionTokensOf(userId) {
      const rows = await adapter.db.selectFrom(table("sessions")).select("session_token").where("user_id", "=", userId).orderBy("session_token").execute()
      return rows.map((row) => String(row.session_token))
    },
    async userIdsByEmail(email) {
      const rows = await adapter.db.selectFrom(table("users")).select("id").where("email", "=", email).execute()
      return rows.map((row) => String(row.id))
    },
    async account(provider, providerAccountId) {
      const found = await sqlBackDoor(adapter, prefix).account(provider, providerAccountId)
      return found ? { userId: found.userId } : null
    },
  }
}

const BACKENDS: [string, () => Backend][] = [
  ["@auth/pg-adapter", authjsBackend],
  ["Gatehouse SqlAdapter (postgres)", gatehouseBackend],
]

describe.each(BACKENDS)("database sessions through the router with %s", (_label, makeBackend) => {
  const backend = makeBackend()
  /** username → the user authorize returns (id as the adapter's id, a string) and password. */
  const directory = new Map<string, Person & { id: string; password: string }>()
  const errors: unknown[] = []
  let app: Express

  const config: AuthConfig = {
    secret: SECRET,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        async authorize({ username, password }) {
          const entry = username ? directory.get(username) : undefined
          if (!entry || entry.password !== password) return null
          return { id: entry.id, name: entry.name, email: entry.email, image: entry.image }
        },
      }),
    ],
    session: { strategy: "database" },
    callbacks: {
      // Shows which stored user the session belongs to, and the data of an update.
      session: ({ session, user, trigger, newSession }) =>
        ({ ...session, userId: String(user.id), ...(trigger === "update" ? { update: newSession } : {}) }) as Session,
    },
    logger: {
      error: (error) => {
        errors.push(error)
      },
      warn: () => undefined,
      debug: () => undefined,
    },
  }

  beforeAll(async () => {
    await backend.open()
    config.adapter = backend.adapter()
    app = makeApp(config)
  })

  afterAll(async () => {
    await backend.close()
  })

  beforeEach(() => {
    errors.length = 0
  })

  let counter = 0
  /** A fresh person registered in the adapter, and a directory entry whose id is the stored id. */
  async function registered(label: string, emailVerified: Date | null = null) {
    counter += 1
    const username = `${label}-${counter}-${randomUUID().slice(0, 8)}`
    const person: Person = { name: `Person ${username}`, email: `${username}@example.com`, image: `https://img.example/${username}.png`, emailVerified }
    const id = await backend.register(person)
    directory.set(username, { ...person, id, password: `pw-${username}` })
    return { username, id, ...person }
  }

  async function signIn(agent: Agent, username: string) {
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username, password: directory.get(username)?.password ?? "x" })
    return response
  }

  function sessionTokenOf(response: { headers: Record<string, unknown> }): string {
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie).toBeDefined()
    expect(isCleared(cookie)).toBe(false)
    expect(cookie!.value).toBeTruthy()
    return cookie!.value!
  }

  test("a credentials sign-in stores a session row holding the cookie's token; the session, authSession and requireAuth see the user", async () => {
    const person = await registered("first")
    expect(person.id).toMatch(backend.idPattern)
    const agent = request.agent(app)

    const response = await signIn(agent, person.username)
    expect(response.status).toBe(302)
    expect(response.headers.location).not.toMatch(/error=/)
    const token = sessionTokenOf(response)

    // The row is in the adapter's own sessions table, with the token the cookie holds.
    const row = await backend.session(token)
    expect(row).not.toBeNull()
    expect(row!.userId).toBe(person.id)
    expect(row!.expires.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
    // The credentials id was linked to the registered user (not a new user).
    expect(await backend.account("credentials", person.id)).toEqual({ userId: person.id })
    expect(await backend.userIdsByEmail(person.email)).toEqual([person.id])

    const session = await agent.get("/auth/session").expect(200)
    // Issue #16: how the user signed in (amr) comes with the session; when (authTime) too where
    // the adapter keeps the session's start (Gatehouse's SqlAdapter; not @auth/pg-adapter).
    const { authTime, ...rest } = session.body as { authTime?: number }
    expect(rest).toEqual({
      user: { name: person.name, email: person.email, image: person.image },
      expires: row!.expires.toISOString(),
      userId: person.id,
      amr: ["pwd"],
    })
    if (authTime !== undefined) expect(Math.abs(authTime - Date.now() / 1000)).toBeLessThan(120)

    const root = await agent.get("/").expect(200)
    expect(root.body.auth).toMatchObject({ user: { email: person.email }, userId: person.id })
    const me = await agent.get("/api/me").expect(200)
    expect(me.body).toMatchObject({ user: { name: person.name, email: person.email }, userId: person.id })
    const page = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(page.text).toContain(`Dashboard of ${person.name}`)

    // A client without the cookie is turned away.
    await request(app).get("/api/me").expect(401)
    expect(errors).toEqual([])
  })

  test("a second sign-in reuses the stored user; re-authenticating replaces the previous session row", async () => {
    const person = await registered("again")
    const agent = request.agent(app)
    const first = sessionTokenOf(await signIn(agent, person.username))
    const second = sessionTokenOf(await signIn(agent, person.username))

    expect(second).not.toBe(first)
    expect(await backend.session(first)).toBeNull()
    expect((await backend.session(second))?.userId).toBe(person.id)
    expect(await backend.userIdsByEmail(person.email)).toEqual([person.id])
    expect(await backend.account("credentials", person.id)).toEqual({ userId: person.id })

    // Another device signs in as the same user: same stored user, its own session.
    const other = request.agent(app)
    const third = sessionTokenOf(await signIn(other, person.username))
    expect(await backend.sessionTokensOf(person.id)).toEqual([second, third].sort())
    expect((await other.get("/auth/session").expect(200)).body.userId).toBe(person.id)
    expect((await agent.get("/auth/session").expect(200)).body.userId).toBe(person.id)
    expect(errors).toEqual([])
  })

  test("a credentials user not yet stored is created (and linked) in the adapter, then found again", async () => {
    counter += 1
    const username = `new-${counter}-${randomUUID().slice(0, 8)}`
    // An id that no stored user has: Gatehouse creates the user; a SERIAL adapter picks its own id.
    const foreignId = String(900000 + counter)
    directory.set(username, { id: foreignId, name: "Newcomer", email: `${username}@example.com`, image: null, password: "pw" })

    const token = sessionTokenOf(await signIn(request.agent(app), username))
    const ids = await backend.userIdsByEmail(`${username}@example.com`)
    expect(ids).toHaveLength(1)
    const storedId = ids[0]!
    expect(await backend.account("credentials", foreignId)).toEqual({ userId: storedId })
    expect((await backend.session(token))?.userId).toBe(storedId)

    const again = sessionTokenOf(await signIn(request.agent(app), username))
    expect((await backend.session(again))?.userId).toBe(storedId)
    expect(await backend.userIdsByEmail(`${username}@example.com`)).toEqual([storedId])
    expect(errors).toEqual([])
  })

  test("POST /auth/session updates the session: the callback gets the data and a due expiry moves in the adapter's row", async () => {
    const person = await registered("update")
    const agent = request.agent(app)
    const token = sessionTokenOf(await signIn(agent, person.username))
    // Make the refresh due: the row now ends in one hour.
    await backend.setExpiry(token, new Date(Date.now() + 60 * 60 * 1000))

    const csrf = await csrfToken(agent)
    const response = await agent.post("/auth/session").send({ csrfToken: csrf, data: { theme: "dark" } }).expect(200)
    expect(response.body).toMatchObject({ user: { email: person.email }, userId: person.id, update: { theme: "dark" } })

    const row = await backend.session(token)
    expect(row!.expires.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
    expect(response.body.expires).toBe(row!.expires.toISOString())
    // The cookie is re-sent with the same token and the new expiry.
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie?.value).toBe(token)
    expect(cookie?.expires?.getTime()).toBe(Math.floor(row!.expires.getTime() / 1000) * 1000)

    // Without the CSRF token nothing is updated.
    const refused = await agent.post("/auth/session").set("Accept", "application/json").send({ data: { theme: "light" } })
    expect(refused.status).toBe(403)
    expect(refused.body.update).toBeUndefined()
  })

  test("sign-out deletes the session row; the old cookie then reads as signed out", async () => {
    const person = await registered("signout")
    const agent = request.agent(app)
    const token = sessionTokenOf(await signIn(agent, person.username))
    expect(await backend.session(token)).not.toBeNull()

    const csrf = await csrfToken(agent)
    const response = await agent.post("/auth/signout").type("form").send({ csrfToken: csrf }).expect(302)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(await backend.session(token)).toBeNull()
    expect(await backend.sessionTokensOf(person.id)).toEqual([])

    // A copy of the cookie taken before sign-out no longer works.
    const replay = await request(app).get("/auth/session").set("Cookie", `${SESSION_COOKIE}=${token}`).expect(200)
    expect(replay.body).toBeNull()
    await request(app).get("/api/me").set("Cookie", `${SESSION_COOKIE}=${token}`).expect(401)
    expect(errors).toEqual([])
  })

  test("a session row found past its expiry is deleted and reads as signed out", async () => {
    const person = await registered("expired")
    const agent = request.agent(app)
    const token = sessionTokenOf(await signIn(agent, person.username))
    await backend.setExpiry(token, new Date(Date.now() - 60 * 1000))

    const response = await agent.get("/auth/session").expect(200)
    expect(response.body).toBeNull()
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(await backend.session(token)).toBeNull()
  })

  test("credentials users whose authorize returns no id are refused, so two of them can never share a stored user", async () => {
    counter += 1
    const first = `noid-a-${counter}-${randomUUID().slice(0, 8)}`
    const second = `noid-b-${counter}-${randomUUID().slice(0, 8)}`
    // authorize returns users without an id (allowed without an adapter, where User.id is optional).
    directory.set(first, { id: undefined as unknown as string, name: "First", email: `${first}@example.com`, image: null, password: "pw" })
    directory.set(second, { id: undefined as unknown as string, name: "Second", email: `${second}@example.com`, image: null, password: "pw" })

    const firstAgent = request.agent(app)
    const secondAgent = request.agent(app)
    for (const [agent, username] of [[firstAgent, first], [secondAgent, second]] as const) {
      const response = await signIn(agent, username)
      // The README: with an adapter, authorize must return the id; without one the sign-in fails.
      expect(response.status).toBe(302)
      expect(response.headers.location).toContain("error=Configuration")
      expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
    }
    expect(await backend.userIdsByEmail(`${first}@example.com`)).toEqual([])
    expect(await backend.userIdsByEmail(`${second}@example.com`)).toEqual([])
  })

  // (An unproven stored user meeting the app's credentials user is taken back by it, issue #24:
  // __tests__/security/pre-account-hijack.test.ts.)
  test("a credentials user with the email of another stored user who proved it is refused, not signed in as that user", async () => {
    const owner = await registered("owner", new Date())
    counter += 1
    const username = `impostor-${counter}`
    directory.set(username, { id: String(800000 + counter), name: "Impostor", email: owner.email, image: null, password: "pw" })

    const response = await signIn(request.agent(app), username)
    expect(response.status).toBe(302)
    expect(response.headers.location).toContain("error=OAuthAccountNotLinked")
    expect(findCookie(response, SESSION_COOKIE)).toBeUndefined()
    expect(await backend.sessionTokensOf(owner.id)).toEqual([])
    expect(await backend.userIdsByEmail(owner.email)).toEqual([owner.id])
  })
})

describe("@auth/pg-adapter picks its own ids (SERIAL): credentials ids and stored ids must not be confused", () => {
  let db: AuthjsSchema
  let app: Express
  const directory = new Map<string, Person & { id: string }>()

  beforeAll(async () => {
    db = await openAuthjsSchema()
    const config: AuthConfig = {
      secret: SECRET,
      logLevel: "silent",
      adapter: PostgresAdapter(db.pool),
      session: { strategy: "database" },
      providers: [
        Credentials({
          credentials: { username: { label: "Username" } },
          async authorize({ username }) {
            const entry = username ? directory.get(username) : undefined
            return entry ? { id: entry.id, name: entry.name, email: entry.email, image: entry.image } : null
          },
        }),
      ],
    }
    app = makeApp(config)
  })

  afterAll(async () => {
    await db.close()
  })

  async function signIn(agent: Agent, username: string) {
    const token = await csrfToken(agent)
    return agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username })
  }

  test("a credentials user whose id equals the SERIAL id another person was given is not signed in as that person", async () => {
    // Carol's id in the app's own user store is 900123; she is not in the adapter's users table,
    // so the first sign-in creates her there, and PostgreSQL gives her the next SERIAL id.
    directory.set("carol", { id: "900123", name: "Carol", email: "carol@example.com", image: null })
    const carolAgent = request.agent(app)
    expect((await signIn(carolAgent, "carol")).status).toBe(302)
    const { rows } = await db.pool.query(`SELECT id FROM users WHERE email = $1`, ["carol@example.com"])
    expect(rows).toHaveLength(1)
    const carolStoredId = String(rows[0].id)
    expect(carolStoredId).not.toBe("900123")

    // Dave is another person of the app whose own id happens to be that number.
    directory.set("dave", { id: carolStoredId, name: "Dave", email: "dave@example.com", image: null })
    const daveAgent = request.agent(app)
    await signIn(daveAgent, "dave")
    const session = await daveAgent.get("/auth/session").expect(200)

    // Dave must never get a session for Carol's stored user (refused, or a user of his own).
    expect(session.body?.user?.email).not.toBe("carol@example.com")
    const { rows: links } = await db.pool.query(`SELECT "userId" FROM accounts WHERE provider = 'credentials' AND "providerAccountId" = $1`, [carolStoredId])
    expect(links.map((row) => String(row.userId))).not.toContain(carolStoredId)
  })
})

describe("an app moving between @auth/core and Gatehouse on the same @auth/pg-adapter tables", () => {
  let db: AuthjsSchema
  let app: Express
  const sent: EmailProviderSendVerificationRequestParams[] = []
  const authjsLog = quietLogger()
  const directory = new Map<string, Person & { id: string }>()

  function authjsConfig(): AuthjsConfig {
    return {
      adapter: PostgresAdapter(db.pool),
      providers: [
        Resend({
          from: "auth@example.com",
          sendVerificationRequest: async (params) => {
            sent.push(params)
          },
        }),
      ],
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      session: { strategy: "database" },
      logger: authjsLog.logger,
    }
  }

  beforeAll(async () => {
    db = await openAuthjsSchema()
    app = makeApp({
      secret: SECRET,
      logLevel: "silent",
      adapter: PostgresAdapter(db.pool),
      providers: [
        Credentials({
          credentials: { username: { label: "Username" } },
          async authorize({ username }) {
            const entry = username ? directory.get(username) : undefined
            return entry ? { id: entry.id, name: entry.name, email: entry.email, image: entry.image } : null
          },
        }),
      ],
    })
  })

  afterAll(async () => {
    await db.close()
  })

  test("a session @auth/core created (email sign-in) in @auth/pg-adapter's tables is read by Gatehouse's router, and Gatehouse's sign-out deletes it", async () => {
    const email = `frank-${randomUUID().slice(0, 8)}@example.com`
    const jar: Jar = new Map()
    const config = authjsConfig()
    const csrf = await callAuthjs(config, "/auth/csrf", jar)
    await callAuthjs(config, "/auth/signin/resend", jar, { form: { csrfToken: (csrf.json as { csrfToken: string }).csrfToken, email } })
    expect(sent).toHaveLength(1)
    const callback = await callAuthjs(config, sent[0]!.url, jar)
    expect(callback.location).not.toMatch(/error=/)
    const token = jar.get(SESSION_COOKIE)!
    const { rows } = await db.pool.query(`SELECT s."userId", u.email FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1`, [token])
    expect(rows).toEqual([{ userId: expect.any(Number), email }])

    const cookie = `${SESSION_COOKIE}=${token}`
    const read = await request(app).get("/auth/session").set("Cookie", cookie).expect(200)
    expect(read.body).toMatchObject({ user: { email } })
    await request(app).get("/api/me").set("Cookie", cookie).expect(200)

    const issued = await request(app).get("/auth/csrf").expect(200)
    const csrfCookie = findCookie(issued, "authjs.csrf-token")!
    await request(app)
      .post("/auth/signout")
      .set("Cookie", `${cookie}; ${csrfCookie.name}=${csrfCookie.value}`)
      .type("form")
      .send({ csrfToken: issued.body.csrfToken })
      .expect(302)
    expect((await db.pool.query(`SELECT 1 FROM sessions WHERE "sessionToken" = $1`, [token])).rowCount).toBe(0)
    expect(authjsLog.errors).toEqual([])
  })

  test("a session Gatehouse's router created in @auth/pg-adapter's tables is read by @auth/core", async () => {
    const adapter = PostgresAdapter(db.pool)
    const user = await adapter.createUser!({ id: "", name: "Gina", email: `gina-${randomUUID().slice(0, 8)}@example.com`, emailVerified: null, image: null })
    directory.set("gina", { id: String(user.id), name: "Gina", email: user.email, image: null })
    const agent = request.agent(app)
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "gina" })
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie?.value).toBeTruthy()

    const call = await callAuthjs(authjsConfig(), "/auth/session", new Map(), { cookie: `${SESSION_COOKIE}=${cookie!.value}` })
    expect(call.json).toMatchObject({ user: { name: "Gina", email: user.email } })
    expect(authjsLog.errors).toEqual([])
  })
})
