/**
 * Gatehouse next to the middleware Express apps usually mount: the body parsers, cookie-parser,
 * express-session and helmet, each mounted before and after the router. Every action must work
 * either way (a body a parser already consumed is read from `req.body`), nothing hangs, and the
 * cookies Gatehouse sets survive the other middleware (and theirs survive Gatehouse).
 *
 * cookie-parser, express-session and helmet are devDependencies (not dependencies of Gatehouse).
 */
import express, { type Express, type RequestHandler } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, csrfToken, findCookie, isCleared, testConfig, type Agent } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, agentFor, localPath, setCookieLines, signedIn } from "./support.js"

type Factory = (...args: unknown[]) => RequestHandler

/** A devDependency's default export (imported by name: some have no type declarations here). */
async function load(name: string): Promise<Factory> {
  const loaded = (await import(name)) as { default?: Factory }
  return (loaded.default ?? loaded) as Factory
}

const cookieParser = await load("cookie-parser")
const session = await load("express-session")
const helmet = await load("helmet")

const COOKIE_SECRET = "cookie-parser-secret-5d1e"

interface Layer {
  name: string
  make: () => RequestHandler
  /** cookie-parser with a secret: the app's signed cookies must keep working. */
  signed?: boolean
  session?: boolean
  helmet?: boolean
}

const LAYERS: Layer[] = [
  { name: "express.json()", make: () => express.json() },
  { name: "express.urlencoded({ extended: true })", make: () => express.urlencoded({ extended: true }) },
  { name: "express.urlencoded({ extended: false })", make: () => express.urlencoded({ extended: false }) },
  { name: "express.text()", make: () => express.text() },
  // With type */* these consume every body, so Gatehouse gets a string or a Buffer to parse.
  { name: 'express.text({ type: "*/*" })', make: () => express.text({ type: "*/*" }) },
  { name: "express.raw()", make: () => express.raw() },
  { name: 'express.raw({ type: "*/*" })', make: () => express.raw({ type: "*/*" }) },
  { name: "cookie-parser()", make: () => cookieParser() },
  { name: "cookie-parser(secret)", make: () => cookieParser(COOKIE_SECRET), signed: true },
  {
    name: "express-session (MemoryStore)",
    make: () => session({ secret: "express-session-secret", resave: false, saveUninitialized: true }),
    session: true,
  },
  { name: "helmet()", make: () => helmet(), helmet: true },
]

const POSITIONS = ["before", "after"] as const

/** The last magic link each test's provider "mailed". */
let lastLink: string | undefined

function orderConfig(): AuthConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    session: { strategy: "cookie" },
    providers: [
      credentials(),
      Nodemailer({
        sendVerificationRequest: async ({ url }) => {
          lastLink = url
        },
      }),
    ],
  })
}

function buildApp(layer: Layer, position: (typeof POSITIONS)[number], config: AuthConfig): Express {
  const app = express()
  const middleware = layer.make!()
  if (position === "before") app.use(middleware)
  app.use("/auth", authRouter(config))
  if (position === "after") app.use(middleware)
  app.use(authSession(config))
  app.get("/me", (req, res) => {
    const extra = req as unknown as { signedCookies?: Record<string, unknown>; session?: { visits?: number } }
    res.json({ auth: req.auth ?? null, signed: extra.signedCookies ?? null, visits: extra.session?.visits ?? null })
  })
  app.get("/protected", requireAuth(config), (req, res) => {
    res.json({ name: req.auth?.user?.name })
  })
  // The app's own parsers still see the bodies of the app's own routes.
  app.post("/echo", (req, res) => {
    res.json({ body: Buffer.isBuffer(req.body) ? req.body.toString("utf8") : (req.body ?? null) })
  })
  app.get("/visit", (req, res) => {
    const own = (req as unknown as { session: { visits?: number } }).session
    own.visits = (own.visits ?? 0) + 1
    res.json({ visits: own.visits })
  })
  app.get("/set-signed", (_req, res) => {
    res.cookie("theme", "dark", { signed: true, httpOnly: true })
    res.json({ ok: true })
  })
  return app
}

async function signedInName(agent: Agent): Promise<string | null> {
  const me = await agent.get("/me").expect(200)
  return (me.body.auth?.user?.name as string | undefined) ?? null
}

describe.each(LAYERS)("$name", (layer) => {
  describe.each(POSITIONS)("mounted %s the router", (position) => {
    let config: AuthConfig
    let agent: Agent

    beforeEach(() => {
      lastLink = undefined
      config = orderConfig()
      agent = agentFor(buildApp(layer, position, config))
    })

    test("GET /auth/csrf answers a token and sets its cookie", async () => {
      const response = await agent.get("/auth/csrf").expect(200)
      expect(response.body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
      expect(findCookie(response, "authjs.csrf-token")?.value).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
    })

    test("credentials sign-in with a form body; authSession, requireAuth and /auth/session see it", async () => {
      const response = await signedIn(agent, "alice", { callbackUrl: "/protected" })
      expect(response.headers.location).toBe(`${ORIGIN}/protected`)
      expect(await signedInName(agent)).toBe("Alice")
      expect((await agent.get("/protected").expect(200)).body).toEqual({ name: "Alice" })
      expect((await agent.get("/auth/session").expect(200)).body.user.name).toBe("Alice")
    })

    test("credentials sign-in with a JSON body", async () => {
      const token = await csrfToken(agent)
      const response = await agent
        .post("/auth/callback/credentials")
        .set("X-Auth-Return-Redirect", "1")
        .send({ csrfToken: token, username: "bob", password: "battery-staple", callbackUrl: "/protected" })
        .expect(200)
      expect(response.body).toEqual({ url: `${ORIGIN}/protected` })
      expect(findCookie(response, SESSION_COOKIE)?.value).toBeTruthy()
      expect(await signedInName(agent)).toBe("Bob")
    })

    test("a wrong password is refused as CredentialsSignin (the body was read, not lost)", async () => {
      const token = await csrfToken(agent)
      const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "nope" }).expect(302)
      expect(localPath(response.headers.location)).toMatch(/^\/auth\/signin\?error=CredentialsSignin&code=credentials(&|$)/)
      expect(await signedInName(agent)).toBeNull()
    })

    test("a POST without its token is still refused (MissingCSRF)", async () => {
      await csrfToken(agent)
      const response = await agent.post("/auth/callback/credentials").type("form").send({ username: "alice", password: "correct-horse" }).expect(302)
      expect(localPath(response.headers.location)).toBe("/auth/signin?error=MissingCSRF")
    })

    test("sign-out clears the session", async () => {
      await signedIn(agent, "alice")
      const response = await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
      expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
      expect(await signedInName(agent)).toBeNull()
      await agent.get("/protected").set("Accept", "application/json").expect(401)
    })

    // Issue #19: the link opens a confirm page; its button's POST (a form, through the app's parser) signs in.
    test("email sign-in: the link signs the user in", async () => {
      const token = await csrfToken(agent)
      const asked = await agent.post("/auth/signin/nodemailer").type("form").send({ csrfToken: token, email: "carol@example.com", callbackUrl: "/protected" }).expect(302)
      expect(localPath(asked.headers.location)).toBe("/auth/verify-request?provider=nodemailer&type=email")
      expect(lastLink).toBeDefined()
      const page = await agent.get(localPath(lastLink)).expect(200)
      const fields = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]!.replaceAll("&#34;", '"').replaceAll("&amp;", "&")]))
      expect(Object.keys(fields).sort()).toEqual(["callbackUrl", "csrfToken", "email", "token"])
      const followed = await agent.post(new URL(localPath(lastLink), ORIGIN).pathname).type("form").send(fields).expect(302)
      expect(followed.headers.location).toBe(`${ORIGIN}/protected`)
      expect((await agent.get("/me").expect(200)).body.auth.user.email).toBe("carol@example.com")
    })

    test("the app's own routes still get their bodies", async () => {
      const form = await agent.post("/echo").type("form").send({ a: "1" }).expect(200)
      const json = await agent.post("/echo").send({ a: "1" }).expect(200)
      // Whatever the parser made of them (or nothing, for a parser that skips the type), the
      // router, which only reads bodies under /auth, left them alone.
      for (const response of [form, json]) expect(response.body.body === null || response.body.body).toBeTruthy()
      if (layer.name.startsWith("express.json")) expect(json.body.body).toEqual({ a: "1" })
      if (layer.name.startsWith("express.urlencoded")) expect(form.body.body).toEqual({ a: "1" })
    })

    if (layer.signed) {
      test("the app's signed cookies keep working next to Gatehouse's", async () => {
        await agent.get("/set-signed").expect(200)
        await signedIn(agent, "alice")
        const me = await agent.get("/me").expect(200)
        expect(me.body.signed).toEqual({ theme: "dark" })
        expect(me.body.auth.user.name).toBe("Alice")
      })
    }

    if (layer.session) {
      test("express-session's data and cookie survive Gatehouse's sign-in and sign-out", async () => {
        // A first visit: mounted before, express-session adds its cookie (a new session) to
        // Gatehouse's answer, next to Gatehouse's own, never in place of it.
        const csrf = await agent.get("/auth/csrf").expect(200)
        const names = setCookieLines(csrf).map((line) => line.split("=")[0])
        expect(names).toContain("authjs.csrf-token")
        if (position === "before") expect(names).toContain("connect.sid")
        else expect(names).not.toContain("connect.sid")
        expect((await agent.get("/visit").expect(200)).body.visits).toBe(1)
        await signedIn(agent, "alice")
        expect((await agent.get("/visit").expect(200)).body.visits).toBe(2)
        await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
        expect((await agent.get("/visit").expect(200)).body.visits).toBe(3)
        expect(await signedInName(agent)).toBeNull()
      })
    }

    if (layer.helmet) {
      test("a form post with Origin: null (helmet's no-referrer) and Sec-Fetch-Site: same-origin signs in", async () => {
        const token = await csrfToken(agent)
        const response = await agent
          .post("/auth/callback/credentials")
          .set("Origin", "null")
          .set("Sec-Fetch-Site", "same-origin")
          .type("form")
          .send({ csrfToken: token, username: "alice", password: "correct-horse" })
          .expect(302)
        expect(response.headers.location).toBe(`${ORIGIN}/`)
        const cookie = findCookie(response, SESSION_COOKIE)
        expect(cookie?.value).toBeTruthy()
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" })
        expect(await signedInName(agent)).toBe("Alice")
      })

      test("Origin: null without Sec-Fetch-Site is refused (MissingCSRF), as documented", async () => {
        const token = await csrfToken(agent)
        const response = await agent
          .post("/auth/callback/credentials")
          .set("Origin", "null")
          .type("form")
          .send({ csrfToken: token, username: "alice", password: "correct-horse" })
          .expect(302)
        expect(localPath(response.headers.location)).toBe("/auth/signin?error=MissingCSRF")
        expect(await signedInName(agent)).toBeNull()
      })

      test("Gatehouse's pages keep their own headers; the app's pages get helmet's", async () => {
        const page = await agent.get("/auth/signin").expect(200)
        const csp = String(page.headers["content-security-policy"])
        expect(csp).toContain("default-src 'none'")
        expect(csp).toContain("frame-ancestors 'none'")
        expect(page.headers["referrer-policy"]).toBe("same-origin")
        const own = await agent.get("/me").expect(200)
        expect(own.headers["referrer-policy"]).toBe("no-referrer")
        expect(String(own.headers["content-security-policy"])).toContain("default-src 'self'")
        if (position === "before") {
          // helmet's other headers, set before the router, stay on Gatehouse's answers.
          expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin")
          expect(page.headers["strict-transport-security"]).toBeDefined()
        }
      })
    }
  })
})

describe("a catch-all parser before the router does not widen what Gatehouse accepts", () => {
  // text/plain is a CORS "simple" type (a cross-site form can send it without a preflight), so
  // Gatehouse refuses it whoever parsed the body: the same answer as without the parser.
  const CATCH_ALL: [string, () => RequestHandler][] = [
    ['express.urlencoded({ type: "*/*" })', () => express.urlencoded({ extended: false, type: "*/*" })],
    ['express.text({ type: "*/*" })', () => express.text({ type: "*/*" })],
    ['express.raw({ type: "*/*" })', () => express.raw({ type: "*/*" })],
    ["no parser", () => (_req, _res, next) => next()],
  ]

  test.each(CATCH_ALL)("%s: a text/plain sign-in is refused with 415 and signs no one in", async (_name, make) => {
    const config = orderConfig()
    const app = express()
    app.use(make())
    app.use("/auth", authRouter(config))
    app.use(authSession(config))
    app.get("/me", (req, res) => {
      res.json({ auth: req.auth ?? null })
    })
    const agent = agentFor(app)
    const token = await csrfToken(agent)
    const response = await agent
      .post("/auth/callback/credentials")
      .set("Content-Type", "text/plain")
      .send(`csrfToken=${token}&username=alice&password=correct-horse`)
      .expect(415)
    expect(response.body.error.type).toBe("UnsupportedMediaType")
    expect(findCookie(response, SESSION_COOKIE)).toBeUndefined()
    expect(await signedInName(agent)).toBeNull()
  })
})
