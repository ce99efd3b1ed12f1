/**
 * Cookie sessions (no database) between Gatehouse and @auth/core's `Auth()`: a full @auth/core
 * credentials sign-in (GET /auth/csrf, then POST /auth/callback/credentials with the csrf
 * cookie) gives a session cookie Gatehouse accepts, a Gatehouse sign-in's cookie is accepted by
 * @auth/core, and each side's CSRF cookie is accepted by the other for a POST. With one secret
 * and with a secret list, as the README promises.
 */
import type { Express } from "express"
import type { AuthConfig as AuthjsConfig } from "@auth/core"
import AuthjsCredentials from "@auth/core/providers/credentials"
import { OTHER_SECRET, SECRET, USERS, findCookie, isCleared, makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import type { AuthConfig } from "../../lib/types.js"
import { callAuthjs, quietLogger, setCookieLines, absorb, type Jar } from "./support.js"

const SESSION_COOKIE = "authjs.session-token"
const CSRF_COOKIE = "authjs.csrf-token"
const THIRD_SECRET = "third-secret-5e8a1c3b7d9f4a2e6c0b8d1f3a5c7e9b"

const authjsLog = quietLogger()

/** @auth/core with its own Credentials provider over the same two users as Gatehouse's tests. */
function authjsConfig(secret: string | string[], extra: Partial<AuthjsConfig> = {}): AuthjsConfig {
  return {
    providers: [
      AuthjsCredentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        async authorize(fields) {
          const user = typeof fields.username === "string" ? USERS[fields.username] : undefined
          if (!user || user.password !== fields.password) return null
          return { id: user.id!, name: user.name, email: user.email, image: user.image }
        },
      }),
    ],
    secret,
    trustHost: true,
    basePath: "/auth",
    session: { strategy: "jwt" },
    logger: authjsLog.logger,
    ...extra,
  }
}

/** A full @auth/core credentials sign-in; returns the jar (csrf, callback-url, session cookies). */
async function authjsSignIn(config: AuthjsConfig, username: string) {
  const jar: Jar = new Map()
  const csrf = await callAuthjs(config, "/auth/csrf", jar)
  expect(csrf.status).toBe(200)
  const csrfToken = (csrf.json as { csrfToken: string }).csrfToken
  expect(jar.get(CSRF_COOKIE)).toMatch(new RegExp(`^${csrfToken}\\|[0-9a-f]{64}$`))
  const signedIn = await callAuthjs(config, "/auth/callback/credentials", jar, { form: { csrfToken, username, password: USERS[username]!.password } })
  expect(signedIn.status).toBe(302)
  expect(signedIn.location).not.toMatch(/error=/)
  return { jar, signedIn }
}

/** The Cookie header of the session cookies (one, or its chunks) in the jar. */
function sessionCookies(jar: Jar): string {
  return [...jar].filter(([name]) => name === SESSION_COOKIE || name.startsWith(`${SESSION_COOKIE}.`)).map(([n, v]) => `${n}=${v}`).join("; ")
}

beforeEach(() => {
  authjsLog.errors.length = 0
})

const SECRETS: [string, string | string[]][] = [
  ["one secret", SECRET],
  ["a secret list", [SECRET, OTHER_SECRET]],
]

describe.each(SECRETS)("with %s on both sides", (_label, secret) => {
  let app: Express
  const config: AuthConfig = testConfig({ secret })

  beforeAll(() => {
    app = makeApp(config)
  })

  test("an @auth/core credentials sign-in's session cookie is accepted by Gatehouse: GET /auth/session, authSession and requireAuth show the same user", async () => {
    const { jar } = await authjsSignIn(authjsConfig(secret), "alice")
    const cookie = sessionCookies(jar)
    expect(cookie).toMatch(/^authjs\.session-token=/)
    const alice = USERS.alice!

    const session = await request(app).get("/auth/session").set("Cookie", cookie).expect(200)
    expect(session.body).toMatchObject({ user: { name: alice.name, email: alice.email, image: alice.image } })
    expect(Date.parse(session.body.expires)).toBeGreaterThan(Date.now())
    const root = await request(app).get("/").set("Cookie", cookie).expect(200)
    expect(root.body.auth).toMatchObject({ user: { name: alice.name, email: alice.email } })
    const me = await request(app).get("/api/me").set("Cookie", cookie).expect(200)
    expect(me.body.user.email).toBe(alice.email)

    // @auth/core's own reading of that cookie agrees.
    const theirs = await callAuthjs(authjsConfig(secret), "/auth/session", new Map(), { cookie })
    expect(theirs.json).toMatchObject({ user: session.body.user })
    expect(authjsLog.errors).toEqual([])
  })

  test("a Gatehouse sign-in's session cookie is accepted by @auth/core's GET /auth/session", async () => {
    const response = await signInAs(request.agent(app), "bob")
    expect(response.status).toBe(302)
    const cookie = findCookie(response, SESSION_COOKIE)
    expect(cookie && !isCleared(cookie)).toBe(true)
    const bob = USERS.bob!

    const call = await callAuthjs(authjsConfig(secret), "/auth/session", new Map(), { cookie: `${SESSION_COOKIE}=${cookie!.value}` })
    expect(call.status).toBe(200)
    expect(call.json).toMatchObject({ user: { name: bob.name, email: bob.email, image: null } })
    expect(authjsLog.errors).toEqual([])
  })

  test("@auth/core's CSRF cookie and token are accepted by Gatehouse for a POST (and a wrong token is still refused)", async () => {
    const jar: Jar = new Map()
    const csrf = await callAuthjs(authjsConfig(secret), "/auth/csrf", jar)
    const csrfToken = (csrf.json as { csrfToken: string }).csrfToken
    const csrfCookie = `${CSRF_COOKIE}=${jar.get(CSRF_COOKIE)}`

    const accepted = await request(app)
      .post("/auth/callback/credentials")
      .set("Cookie", csrfCookie)
      .type("form")
      .send({ csrfToken, username: "alice", password: USERS.alice!.password })
    expect(accepted.status).toBe(302)
    expect(accepted.headers.location).not.toMatch(/error=/)
    expect(isCleared(findCookie(accepted, SESSION_COOKIE))).toBe(false)
    expect(findCookie(accepted, SESSION_COOKIE)?.value).toBeTruthy()

    const forged = `${csrfToken.slice(0, -1)}${csrfToken.endsWith("0") ? "1" : "0"}`
    const refused = await request(app)
      .post("/auth/callback/credentials")
      .set("Cookie", csrfCookie)
      .type("form")
      .send({ csrfToken: forged, username: "alice", password: USERS.alice!.password })
    expect(refused.status).toBe(302)
    expect(refused.headers.location).toContain("error=MissingCSRF")
    expect(findCookie(refused, SESSION_COOKIE)).toBeUndefined()
  })

  // With a secret list, @auth/core hashes the CSRF cookie with the list joined by commas, and
  // Gatehouse with the first secret (so a rotation can roll out one process at a time: README
  // "Compatibility with Auth.js"). Gatehouse accepts @auth/core's (test above); the other way round
  // only holds with one secret.
  const listed = Array.isArray(secret)
  if (listed) {
    test("@auth/core refuses Gatehouse's CSRF cookie made with the first secret of the list, as documented", async () => {
      const issued = await request(app).get("/auth/csrf").expect(200)
      const jar: Jar = new Map()
      absorb(jar, setCookieLines(issued))
      const refused = await callAuthjs(authjsConfig(secret), "/auth/callback/credentials", jar, {
        form: { csrfToken: issued.body.csrfToken as string, username: "bob", password: USERS.bob!.password },
      })
      expect(refused.location).toContain("error=MissingCSRF")
    })
  }
  if (!listed) test("Gatehouse's CSRF cookie and token are accepted by @auth/core for a credentials POST (and a wrong token is still refused)", async () => {
    const issued = await request(app).get("/auth/csrf").expect(200)
    const csrfToken = issued.body.csrfToken as string
    const jar: Jar = new Map()
    absorb(jar, setCookieLines(issued))
    expect(jar.get(CSRF_COOKIE)).toMatch(new RegExp(`^${csrfToken}\\|[0-9a-f]{64}$`))

    const accepted = await callAuthjs(authjsConfig(secret), "/auth/callback/credentials", new Map(jar), {
      form: { csrfToken, username: "bob", password: USERS.bob!.password },
    })
    expect(accepted.status).toBe(302)
    expect(accepted.location).not.toMatch(/error=/)
    const session = accepted.setCookies.find((cookie) => cookie.name === SESSION_COOKIE)
    expect(session?.value).toBeTruthy()
    // And that @auth/core session opens in Gatehouse.
    const read = await request(app).get("/auth/session").set("Cookie", `${SESSION_COOKIE}=${session!.value}`).expect(200)
    expect(read.body).toMatchObject({ user: { email: USERS.bob!.email } })

    const refused = await callAuthjs(authjsConfig(secret), "/auth/callback/credentials", new Map(jar), {
      form: { csrfToken: `x${csrfToken.slice(1)}`, username: "bob", password: USERS.bob!.password },
    })
    expect(refused.status).toBe(302)
    expect(refused.location).toContain("error=MissingCSRF")
    expect(refused.setCookies.find((cookie) => cookie.name === SESSION_COOKIE && cookie.value !== "")).toBeUndefined()
  })

  test("a large session is split into the same chunk cookies both ways", async () => {
    const big = "x".repeat(6000)
    // @auth/core writes chunks (its jwt callback adds data); Gatehouse reads them.
    const theirs = authjsConfig(secret, { callbacks: { jwt: ({ token }) => ({ ...token, big }) } })
    const { jar } = await authjsSignIn(theirs, "alice")
    expect(jar.has(`${SESSION_COOKIE}.0`)).toBe(true)
    expect(jar.has(`${SESSION_COOKIE}.1`)).toBe(true)
    expect(jar.has(SESSION_COOKIE)).toBe(false)
    const read = await request(app).get("/auth/session").set("Cookie", sessionCookies(jar)).expect(200)
    expect(read.body).toMatchObject({ user: { email: USERS.alice!.email } })

    // Gatehouse writes chunks; @auth/core reads them (and sees the extra claim in its jwt callback).
    const chunkyApp = makeApp(testConfig({ secret, callbacks: { jwt: ({ token }) => ({ ...token, big }) } }))
    const response = await signInAs(request.agent(chunkyApp), "bob")
    const ours: Jar = new Map()
    absorb(ours, setCookieLines(response))
    expect(ours.has(`${SESSION_COOKIE}.0`)).toBe(true)
    expect(ours.has(`${SESSION_COOKIE}.1`)).toBe(true)
    let seen: unknown
    const reader = authjsConfig(secret, {
      callbacks: {
        jwt: ({ token }) => {
          seen = token.big
          return token
        },
      },
    })
    const call = await callAuthjs(reader, "/auth/session", new Map(), { cookie: sessionCookies(ours) })
    expect(call.json).toMatchObject({ user: { email: USERS.bob!.email } })
    expect(seen).toBe(big)
    expect(authjsLog.errors).toEqual([])
  })
})

describe("secrets that differ between the two", () => {
  test("secret rotation across implementations: an @auth/core session sealed with the old secret opens in Gatehouse with [new, old], is re-sealed, and the new cookie opens in @auth/core with only the new secret", async () => {
    const { jar } = await authjsSignIn(authjsConfig(OTHER_SECRET), "alice")
    const app = makeApp(testConfig({ secret: [THIRD_SECRET, OTHER_SECRET] }))

    const read = await request(app).get("/auth/session").set("Cookie", sessionCookies(jar)).expect(200)
    expect(read.body).toMatchObject({ user: { email: USERS.alice!.email } })
    const resealed = findCookie(read, SESSION_COOKIE)
    expect(resealed?.value).toBeTruthy()
    expect(resealed!.value).not.toBe(jar.get(SESSION_COOKIE))

    const call = await callAuthjs(authjsConfig(THIRD_SECRET), "/auth/session", new Map(), { cookie: `${SESSION_COOKIE}=${resealed!.value}` })
    expect(call.json).toMatchObject({ user: { email: USERS.alice!.email } })
  })

  test("controls: a session or CSRF cookie made with another secret is refused by the other side", async () => {
    const app = makeApp(testConfig({ secret: SECRET }))
    // Session: @auth/core with another secret → Gatehouse reads no session and clears the cookie.
    const { jar } = await authjsSignIn(authjsConfig(THIRD_SECRET), "alice")
    const read = await request(app).get("/auth/session").set("Cookie", sessionCookies(jar)).expect(200)
    expect(read.body).toBeNull()
    expect(isCleared(findCookie(read, SESSION_COOKIE))).toBe(true)

    // CSRF: @auth/core's cookie under another secret is refused by Gatehouse.
    const theirJar: Jar = new Map()
    const csrf = await callAuthjs(authjsConfig(THIRD_SECRET), "/auth/csrf", theirJar)
    const refused = await request(app)
      .post("/auth/callback/credentials")
      .set("Cookie", `${CSRF_COOKIE}=${theirJar.get(CSRF_COOKIE)}`)
      .type("form")
      .send({ csrfToken: (csrf.json as { csrfToken: string }).csrfToken, username: "alice", password: USERS.alice!.password })
    expect(refused.headers.location).toContain("error=MissingCSRF")

    // CSRF: a list on one side and a single secret on the other hash differently (joined list).
    const listJar: Jar = new Map()
    const listCsrf = await callAuthjs(authjsConfig([SECRET, OTHER_SECRET]), "/auth/csrf", listJar)
    const mixed = await request(app)
      .post("/auth/callback/credentials")
      .set("Cookie", `${CSRF_COOKIE}=${listJar.get(CSRF_COOKIE)}`)
      .type("form")
      .send({ csrfToken: (listCsrf.json as { csrfToken: string }).csrfToken, username: "alice", password: USERS.alice!.password })
    expect(mixed.headers.location).toContain("error=MissingCSRF")
  })
})

describe("on HTTPS: the __Secure- session cookie and the __Host- CSRF cookie", () => {
  const SECURE_SESSION = "__Secure-authjs.session-token"
  const HOST_CSRF = "__Host-authjs.csrf-token"

  test("an @auth/core sign-in at an https origin is accepted by Gatehouse behind a TLS proxy, and the other way round", async () => {
    const app = makeApp(testConfig({ trustHost: true }))
    // The TLS proxy in front is a hop Express trusts, so its X-Forwarded-* count.
    app.set("trust proxy", "loopback")
    const https = (path: string) => `https://localhost:3000${path}`
    const config = authjsConfig(SECRET)

    // @auth/core at https://: prefixed names, salted with the prefixed name.
    const jar: Jar = new Map()
    const csrf = await callAuthjs(config, https("/auth/csrf"), jar)
    const csrfToken = (csrf.json as { csrfToken: string }).csrfToken
    expect(jar.has(HOST_CSRF)).toBe(true)
    await callAuthjs(config, https("/auth/callback/credentials"), jar, { form: { csrfToken, username: "alice", password: USERS.alice!.password } })
    expect(jar.has(SECURE_SESSION)).toBe(true)

    const proxy = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "localhost:3000" }
    const read = await request(app).get("/auth/session").set(proxy).set("Cookie", `${SECURE_SESSION}=${jar.get(SECURE_SESSION)}`).expect(200)
    expect(read.body).toMatchObject({ user: { email: USERS.alice!.email } })

    // @auth/core's __Host- CSRF cookie works for a Gatehouse POST, whose session cookie @auth/core then reads.
    const signedIn = await request(app)
      .post("/auth/callback/credentials")
      .set(proxy)
      .set("Cookie", `${HOST_CSRF}=${jar.get(HOST_CSRF)}`)
      .type("form")
      .send({ csrfToken, username: "bob", password: USERS.bob!.password })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.location).not.toMatch(/error=/)
    const ours = findCookie(signedIn, SECURE_SESSION)
    expect(ours?.secure).toBe(true)
    const theirs = await callAuthjs(config, https("/auth/session"), new Map(), { cookie: `${SECURE_SESSION}=${ours!.value}` })
    expect(theirs.json).toMatchObject({ user: { email: USERS.bob!.email } })

    // Under the unprefixed name (another salt) the same value does not open.
    const wrongName = await request(app).get("/auth/session").set("Cookie", `${SESSION_COOKIE}=${ours!.value}`).expect(200)
    expect(wrongName.body).toBeNull()
  })
})
