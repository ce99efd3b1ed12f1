/**
 * Gatehouse's SqlAdapter (PostgreSQL) as @auth/core's adapter, database sessions: @auth/core's
 * `Auth()` reads sessions our adapter stores (and deletes expired ones, and moves a due expiry
 * through it); sessions Gatehouse's router starts are read by @auth/core; sessions created
 * through our adapter the way @auth/core creates them (by hand, and by a real @auth/core email
 * sign-in) are read by Gatehouse's router.
 */
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import type { Express } from "express"
import type { AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import GitHub from "@auth/core/providers/github"
import Resend from "@auth/core/providers/resend"
import type { EmailProviderSendVerificationRequestParams } from "@auth/core/providers/email"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { SECRET, USERS, csrfToken, findCookie, isCleared, makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, sqlBackDoor, uniquePrefix } from "../helpers/databases.js"
import { callAuthjs, quietLogger, type Jar } from "./support.js"

const SESSION_COOKIE = "authjs.session-token"
const DAY = 24 * 60 * 60 * 1000
const MAX_AGE = 30 * 24 * 60 * 60

const prefix = uniquePrefix("interop_authjs")
let adapter: SqlAdapterInstance
let app: Express
const sent: EmailProviderSendVerificationRequestParams[] = []
const authjsLog = quietLogger()

/** @auth/core's configuration: our adapter, database sessions, an OAuth and an email provider. */
function authjsConfig(): AuthjsConfig {
  return {
    // Gatehouse's adapter, passed to @auth/core as it is.
    adapter: adapter as unknown as AuthjsAdapter,
    providers: [
      GitHub({ clientId: "interop-client", clientSecret: "interop-secret" }),
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

/** GET /auth/session in @auth/core with only this session token. */
function authjsSession(token: string) {
  return callAuthjs(authjsConfig(), "/auth/session", new Map(), { cookie: `${SESSION_COOKIE}=${token}` })
}

async function storedUser(label: string) {
  const tag = `${label}-${randomUUID().slice(0, 8)}`
  return adapter.createUser({ id: randomUUID(), name: `User ${tag}`, email: `${tag}@example.com`, emailVerified: null, image: `https://img.example/${tag}.png` })
}

beforeAll(async () => {
  adapter = await openTestDatabase("postgres", prefix)
  app = makeApp(testConfig({ adapter, session: { strategy: "database" } }))
})

afterAll(async () => {
  await closeTestDatabase(adapter, prefix)
})

beforeEach(() => {
  authjsLog.errors.length = 0
  sent.length = 0
})

describe("@auth/core reads database sessions through Gatehouse's SqlAdapter", () => {
  test("a session stored through our adapter is returned by Auth() GET /auth/session with the user's name and email", async () => {
    const user = await storedUser("read")
    const sessionToken = randomUUID()
    const expires = new Date(Date.now() + 10 * DAY)
    await adapter.createSession({ sessionToken, userId: user.id, expires })

    const call = await authjsSession(sessionToken)
    expect(call.status).toBe(200)
    expect(call.json).toEqual({ user: { name: user.name, email: user.email, image: user.image }, expires: expires.toISOString() })
    // @auth/core re-sends the cookie with the same token.
    expect(call.setCookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value).toBe(sessionToken)
    expect(authjsLog.errors).toEqual([])
  })

  test("an unknown session token gives null and the cookie is cleared", async () => {
    const call = await authjsSession(randomUUID())
    expect(call.status).toBe(200)
    expect(call.json).toBeNull()
    const cookie = call.setCookies.find((c) => c.name === SESSION_COOKIE)
    expect(cookie?.value).toBe("")
    expect(authjsLog.errors).toEqual([])
  })

  test("an expired session row is deleted by @auth/core through our adapter", async () => {
    const user = await storedUser("expired")
    const sessionToken = randomUUID()
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() - 60 * 1000) })
    expect(await sqlBackDoor(adapter, prefix).session(sessionToken)).not.toBeNull()

    const call = await authjsSession(sessionToken)
    expect(call.json).toBeNull()
    expect(await sqlBackDoor(adapter, prefix).session(sessionToken)).toBeNull()
    expect(authjsLog.errors).toEqual([])
  })

  test("a session due for refresh has its expiry moved by @auth/core through our updateSession", async () => {
    const user = await storedUser("refresh")
    const sessionToken = randomUUID()
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 60 * 60 * 1000) })

    const call = await authjsSession(sessionToken)
    expect(call.json).toMatchObject({ user: { email: user.email } })
    const row = await sqlBackDoor(adapter, prefix).session(sessionToken)
    expect(row?.userId).toBe(user.id)
    expect(row!.expires.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
    expect(authjsLog.errors).toEqual([])
  })
})

describe("sessions cross between Gatehouse's router and @auth/core on the same adapter", () => {
  test("a session started by a Gatehouse credentials sign-in is read by @auth/core", async () => {
    const agent = request.agent(app)
    const response = await signInAs(agent, "alice")
    expect(response.status).toBe(302)
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie && !isCleared(cookie)).toBe(true)
    const token = cookie!.value!
    const row = await sqlBackDoor(adapter, prefix).session(token)
    expect(row?.userId).toBe(USERS.alice!.id)

    const call = await authjsSession(token)
    expect(call.json).toEqual({
      user: { name: USERS.alice!.name, email: USERS.alice!.email, image: USERS.alice!.image },
      expires: row!.expires.toISOString(),
    })

    // And after Gatehouse signs out, @auth/core sees no session either.
    const csrf = await csrfToken(agent)
    await agent.post("/auth/signout").type("form").send({ csrfToken: csrf }).expect(302)
    expect((await authjsSession(token)).json).toBeNull()
    expect(authjsLog.errors).toEqual([])
  })

  test("a session created through our adapter as @auth/core creates it is read by Gatehouse's router", async () => {
    // What @auth/core's handleLoginOrRegister does for a new user: createUser({ ...profile,
    // emailVerified }) with its own random id, then createSession with a random UUID token.
    const created = await adapter.createUser({ id: randomUUID(), name: "Dana", email: `dana-${randomUUID().slice(0, 8)}@example.com`, emailVerified: new Date(), image: null })
    const session = await adapter.createSession({
      sessionToken: randomUUID(),
      userId: created.id,
      expires: new Date(Date.now() + MAX_AGE * 1000),
    })

    const cookie = `${SESSION_COOKIE}=${session.sessionToken}`
    const read = await request(app).get("/auth/session").set("Cookie", cookie).expect(200)
    expect(read.body).toEqual({ user: { name: "Dana", email: created.email, image: null }, expires: session.expires.toISOString() })
    const me = await request(app).get("/api/me").set("Cookie", cookie).expect(200)
    expect(me.body.user.email).toBe(created.email)
  })

  test("a real @auth/core email sign-in creates the user and session through our adapter; Gatehouse's router reads it and its sign-out deletes it", async () => {
    const email = `erin-${randomUUID().slice(0, 8)}@example.com`
    const jar: Jar = new Map()
    const config = authjsConfig()

    const csrf = await callAuthjs(config, "/auth/csrf", jar)
    const authjsCsrf = (csrf.json as { csrfToken: string }).csrfToken
    const started = await callAuthjs(config, "/auth/signin/resend", jar, { form: { csrfToken: authjsCsrf, email } })
    expect(started.status).toBe(302)
    expect(started.location).toContain("/auth/verify-request")
    expect(sent).toHaveLength(1)

    // The link from the "email": @auth/core uses our useVerificationToken, createUser, createSession.
    const callback = await callAuthjs(config, sent[0]!.url, jar)
    expect(callback.status).toBe(302)
    expect(callback.location).not.toMatch(/error=/)
    const token = jar.get(SESSION_COOKIE)
    expect(token).toBeDefined()
    const stored = await adapter.getUserByEmail(email)
    expect(stored?.emailVerified).toBeInstanceOf(Date)
    expect((await sqlBackDoor(adapter, prefix).session(token!))?.userId).toBe(stored!.id)

    const cookie = `${SESSION_COOKIE}=${token}`
    const read = await request(app).get("/auth/session").set("Cookie", cookie).expect(200)
    expect(read.body).toMatchObject({ user: { email } })
    await request(app).get("/api/me").set("Cookie", cookie).expect(200)

    // Gatehouse's sign-out deletes the row @auth/core created.
    const issued = await request(app).get("/auth/csrf").expect(200)
    const csrfCookie = findCookie(issued, "authjs.csrf-token")!
    await request(app)
      .post("/auth/signout")
      .set("Cookie", `${cookie}; ${csrfCookie.name}=${csrfCookie.value}`)
      .type("form")
      .send({ csrfToken: issued.body.csrfToken })
      .expect(302)
    expect(await sqlBackDoor(adapter, prefix).session(token!)).toBeNull()
    expect((await callAuthjs(config, "/auth/session", jar)).json).toBeNull()
    expect(authjsLog.errors).toEqual([])
  })
})

/**
 * Type-checks `source` as a module in this folder, with the project's tsconfig, and returns its
 * own diagnostics. The file exists only in memory (nothing is written to the checkout).
 */
function typeErrorsOf(source: string): string[] {
  const here = dirname(fileURLToPath(import.meta.url))
  const file = join(here, "__virtual_adapter_type_check__.ts")
  const configPath = ts.findConfigFile(here, ts.sys.fileExists, "tsconfig.json")!
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, dirname(configPath))
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, sourceMap: false, declaration: false }
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (name) => name === file || fileExists.call(host, name)
  host.readFile = (name) => (name === file ? source : readFile.call(host, name))
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile.call(host, name, language, ...rest)
  const program = ts.createProgram([file], options, host)
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").split("\n").slice(0, 6).join("\n"))
}

describe("types: Gatehouse's adapter is accepted by @auth/core's Auth() as it is", () => {
  test("controls: @auth/pg-adapter type-checks there, a wrongly typed adapter does not (the check can pass and fail)", () => {
    expect(
      typeErrorsOf(`
import { Auth } from "@auth/core"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
export const response = Auth(new Request("http://localhost/auth/session"), { adapter: PostgresAdapter(new pg.Pool()), providers: [], secret: "s" })
`),
    ).toEqual([])
    const errors = typeErrorsOf(`
import { Auth } from "@auth/core"
export const response = Auth(new Request("http://localhost/auth/session"), { adapter: { getUser: 42 }, providers: [], secret: "s" })
`)
    expect(errors.join("\n")).toMatch(/Type .number. is not assignable to type .\(id: string\) => Awaitable<AdapterUser \| null>./)
  }, 60_000)

  test("Auth(request, { adapter: SqlAdapter(url) }) type-checks without a cast", () => {
    const errors = typeErrorsOf(`
import { Auth } from "@auth/core"
import { SqlAdapter } from "../../adapters/sql/index.js"
export const response = Auth(new Request("http://localhost/auth/session"), {
  adapter: SqlAdapter("postgres://localhost/app"),
  providers: [],
  secret: "s",
  session: { strategy: "database" },
})
`)
    expect(errors).toEqual([])
  }, 60_000)
})
