/**
 * Without Express: the router, `authSession`, `requireAuth` and `getSession` as plain
 * `(req, res, next)` middleware, in a Connect app (`connect`, a devDependency) and in a bare `node:http` server that
 * chains them by hand. Sign-in, the session, a protected route and sign-out, with no body parser,
 * no `res.locals` and no `req.baseUrl`.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http"
import { authRouter, authSession, getSession, requireAuth } from "../../lib/index.js"
import type { GatehouseRequest, GatehouseResponse, Middleware } from "../../lib/express/types.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, findCookie, isCleared, request, testConfig, type Agent } from "../helpers/app.js"
import { HOST, ORIGIN, SESSION_COOKIE, localPath, signedIn } from "./support.js"

interface ConnectApp extends RequestListener {
  use(path: string, handler: Middleware): ConnectApp
  use(handler: Middleware | ((error: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void)): ConnectApp
}

async function loadConnect(): Promise<() => ConnectApp> {
  const name = "connect" // imported by name: no type declarations here
  const loaded = (await import(name)) as { default?: () => ConnectApp }
  return loaded.default ?? (loaded as unknown as () => ConnectApp)
}

const connect = await loadConnect()

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status
  res.setHeader("Content-Type", "application/json")
  res.end(JSON.stringify(body))
}

/** The routes both apps serve after the auth middleware. */
function routes(config: AuthConfig): Middleware {
  return (req: GatehouseRequest, res: GatehouseResponse, next) => {
    const path = (req.url ?? "/").split("?")[0]
    if (req.method === "GET" && path === "/me") return send(res, 200, { auth: req.auth ?? null, locals: res.locals?.auth ?? null })
    if (req.method === "GET" && path === "/helper") {
      getSession(req, config).then((session) => send(res, 200, { session }), next)
      return
    }
    next()
  }
}

function protectedPage(req: GatehouseRequest, res: GatehouseResponse): void {
  send(res, 200, { page: "secret", name: req.auth?.user?.name ?? null })
}

function connectApp(config: AuthConfig): RequestListener {
  const app = connect()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.use(routes(config))
  app.use("/protected", requireAuth(config))
  app.use("/protected", (req, res) => protectedPage(req, res))
  app.use((_req: GatehouseRequest, res: GatehouseResponse) => send(res, 404, { error: "not found" }))
  app.use((error: unknown, _req: IncomingMessage, res: ServerResponse, _next: (error?: unknown) => void) => {
    send(res, 500, { error: String(error) })
  })
  return app
}

/** A bare node:http server: the middleware chained by hand, the way any framework would. */
function httpApp(config: AuthConfig): RequestListener {
  const router = authRouter(config)
  const session = authSession(config)
  const guard = requireAuth(config)
  const own = routes(config)
  return (req, res) => {
    const fail = (error?: unknown) => send(res, 500, { error: String(error) })
    const then = (step: () => void) => (error?: unknown) => (error ? fail(error) : step())
    router(req, res, then(() =>
      session(req, res, then(() =>
        own(req, res, then(() => {
          const path = (req.url ?? "/").split("?")[0]
          if (path === "/protected") return guard(req, res, then(() => protectedPage(req, res)))
          send(res, 404, { error: "not found" })
        })),
      )),
    ))
  }
}

interface Flavour {
  name: string
  app: (config: AuthConfig) => RequestListener
}

const FLAVOURS: Flavour[] = [
  { name: "Connect", app: connectApp },
  { name: "node:http", app: httpApp },
]

describe.each(FLAVOURS)("$name app", ({ app }) => {
  const run = test
  let agent: Agent

  beforeEach(() => {
    agent = request.agent(createServer(app(testConfig()))).set("Host", HOST) as Agent
  })

  run("csrf and providers answer under /auth, other paths fall through", async () => {
    expect(await csrfToken(agent)).toMatch(/^[0-9a-f]{64}$/)
    const providers = await agent.get("/auth/providers").expect(200)
    expect(providers.body[0]).toMatchObject({ id: "credentials", callbackUrl: `${ORIGIN}/auth/callback/credentials` })
    expect((await agent.get("/nowhere").expect(404)).body).toEqual({ error: "not found" })
  })

  run("signed out: authSession gives null, requireAuth redirects pages and answers 401 to APIs", async () => {
    expect((await agent.get("/me").expect(200)).body).toEqual({ auth: null, locals: null })
    const page = await agent.get("/protected?tab=1").set("Accept", "text/html").expect(302)
    expect(localPath(page.headers.location)).toBe(`/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/protected?tab=1`)}`)
    const api = await agent.get("/protected").set("Accept", "application/json").expect(401)
    expect(api.body.error.type).toBe("SessionRequired")
  })

  run("sign-in, session (authSession, getSession, /auth/session), protected route, sign-out", async () => {
    const signIn = await signedIn(agent, "alice", { callbackUrl: "/protected" })
    expect(signIn.headers.location).toBe(`${ORIGIN}/protected`)
    const me = await agent.get("/me").expect(200)
    expect(me.body.auth.user.name).toBe("Alice")
    expect(me.body.locals.user.name).toBe("Alice")
    expect((await agent.get("/helper").expect(200)).body.session.user.name).toBe("Alice")
    expect((await agent.get("/auth/session").expect(200)).body.user.name).toBe("Alice")
    expect((await agent.get("/protected").expect(200)).body).toEqual({ page: "secret", name: "Alice" })

    const signOut = await agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent) }).expect(302)
    expect(isCleared(findCookie(signOut, SESSION_COOKIE))).toBe(true)
    expect((await agent.get("/me").expect(200)).body.auth).toBeNull()
    await agent.get("/protected").set("Accept", "application/json").expect(401)
  })

  run("credentials sign-in with a JSON body", async () => {
    const token = await csrfToken(agent)
    const response = await agent
      .post("/auth/callback/credentials")
      .set("X-Auth-Return-Redirect", "1")
      .send({ csrfToken: token, username: "bob", password: "battery-staple" })
      .expect(200)
    expect(response.body).toEqual({ url: `${ORIGIN}/` })
    expect((await agent.get("/me").expect(200)).body.auth.user.name).toBe("Bob")
  })
})
