/**
 * Behind a TLS-terminating proxy. The test runs a real one: a `node:https` server with a
 * self-signed certificate made for the test (openssl), forwarding to the app over plain http
 * with the backend's own `Host` and, depending on the case, `X-Forwarded-Proto/Host/For`.
 * The browser (a supertest agent trusting that certificate) only ever talks to the proxy.
 *
 * (a) `app.set("trust proxy", 1)` and `trustHost`: Gatehouse follows X-Forwarded-*.
 * (b) `AUTH_URL=https://…` and nothing else: the proxy need not send any X-Forwarded-* header.
 * (c) neither: X-Forwarded-* from an untrusted hop are ignored (issue #12); see the cases.
 *
 * In (a) and (b), sign-in (credentials and a real OpenID Connect flow against the local IdP),
 * the callbacks and `getSession` in an app route agree on `https://<proxy host>` and on the
 * `__Secure-`/`__Host-` cookie names.
 */
import { jest } from "@jest/globals"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import { authRouter, authSession, getSession, requireAuth } from "../../lib/index.js"
import OIDC from "../../lib/providers/oidc.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, findCookie, isCleared, request, serve, testConfig, type Agent } from "../helpers/app.js"
import { startIdp, type TestIdp } from "../helpers/idp.js"

const CLIENT_ID = "proxy-client"
const CLIENT_SECRET = "proxy-client-secret-0b7d"

let tls: { key: Buffer; cert: Buffer; dir: string }

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-proxy-"))
  execFileSync(
    "openssl",
    [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1",
      "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { stdio: "ignore" },
  )
  tls = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")), dir }
})

afterAll(() => rmSync(tls.dir, { recursive: true, force: true }))

type ForwardMode = "forwarded" | "plain"

interface Proxy {
  /** `https://127.0.0.1:<port>` */
  origin: string
  /** `127.0.0.1:<port>` */
  host: string
  /** Point the proxy at the app (`http://127.0.0.1:<port>`). */
  target: string
  close(): Promise<void>
}

/**
 * A TLS-terminating reverse proxy. It always sends the backend's own `Host` (as proxies
 * commonly do), so the public host reaches the app only through X-Forwarded-Host. "plain" sends
 * no X-Forwarded-* header at all (and drops any the client sent).
 */
async function startProxy(mode: ForwardMode): Promise<Proxy> {
  const proxy: Proxy = { origin: "", host: "", target: "", close: async () => undefined }
  const server: HttpsServer = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const target = new URL(proxy.target)
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host }
    delete headers["x-forwarded-proto"]
    delete headers["x-forwarded-host"]
    if (mode === "forwarded") {
      headers["x-forwarded-proto"] = "https"
      headers["x-forwarded-host"] = req.headers.host
      const before = req.headers["x-forwarded-for"]
      headers["x-forwarded-for"] = [before, req.socket.remoteAddress].filter(Boolean).join(", ")
    } else {
      delete headers["x-forwarded-for"]
    }
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on("error", () => {
      res.statusCode = 502
      res.end()
    })
    req.pipe(upstream)
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.address() as AddressInfo
  proxy.host = `127.0.0.1:${port}`
  proxy.origin = `https://${proxy.host}`
  proxy.close = () =>
    new Promise<void>((closed) => {
      server.closeAllConnections()
      server.close(() => closed())
    })
  return proxy
}

interface Site {
  proxy: Proxy
  idp: TestIdp
  config: AuthConfig
  /** A browser at the proxy (trusts the test certificate). */
  agent(): Agent
  close(): Promise<void>
}

interface SiteOptions {
  mode: ForwardMode
  trustProxy?: boolean
  trustHost?: boolean
  /** AUTH_URL while the configuration is resolved (the proxy's origin + this path). */
  authUrlPath?: string
}

const sites: Site[] = []
afterEach(async () => {
  while (sites.length) await sites.pop()!.close()
})

beforeAll(() => {
  // oidc-provider's development warnings.
  jest.spyOn(console, "warn").mockImplementation(() => undefined)
  jest.spyOn(console, "info").mockImplementation(() => undefined)
})
afterAll(() => jest.restoreAllMocks())

async function startSite(options: SiteOptions): Promise<Site> {
  const proxy = await startProxy(options.mode)
  const idp = await startIdp({
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${proxy.origin}/auth/callback/idp`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
  })
  const config = testConfig({
    providers: [credentials(), OIDC({ id: "idp", name: "Test IdP", issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })],
    ...(options.trustHost === undefined ? {} : { trustHost: options.trustHost }),
  })
  const previous = process.env.AUTH_URL
  if (options.authUrlPath !== undefined) process.env.AUTH_URL = `${proxy.origin}${options.authUrlPath}`
  const app = express()
  try {
    if (options.trustProxy) app.set("trust proxy", 1)
    app.use("/auth", authRouter(config))
    app.use(authSession(config))
    app.get("/whoami", (req, res, next) => {
      getSession(req, config)
        .then((session) => res.json({ session, protocol: req.protocol, secure: req.secure, ip: req.ip, auth: req.auth ?? null }))
        .catch(next)
    })
    app.get("/dashboard", requireAuth(config), (req, res) => {
      res.json({ name: req.auth?.user?.name })
    })
  } finally {
    if (previous === undefined) delete process.env.AUTH_URL
    else process.env.AUTH_URL = previous
  }
  const backend = await serve(app)
  proxy.target = backend.url
  const site: Site = {
    proxy,
    idp,
    config,
    agent: () => request.agent(proxy.origin).ca(tls.cert) as unknown as Agent,
    close: async () => {
      await proxy.close()
      await backend.close()
      await idp.close()
    },
  }
  sites.push(site)
  return site
}

async function csrfAt(agent: Agent) {
  const response = await agent.get("/auth/csrf").expect(200)
  return { token: response.body.csrfToken as string, response }
}

/** Everything that must agree on https://<proxy host> and the secure cookie names. */
function secureSuite(options: Omit<SiteOptions, "mode">, mode: ForwardMode) {
  test("the CSRF cookie is __Host-authjs.csrf-token, Secure, Path=/, no Domain", async () => {
    const site = await startSite({ ...options, mode })
    const { response } = await csrfAt(site.agent())
    const cookie = findCookie(response, "__Host-authjs.csrf-token")
    expect(cookie).toMatchObject({ secure: true, path: "/", httpOnly: true })
    expect(cookie?.domain).toBeUndefined()
    expect(findCookie(response, "authjs.csrf-token")).toBeUndefined()
  })

  test("the providers list gives https callback URLs on the proxy's host", async () => {
    const site = await startSite({ ...options, mode })
    const providers = await site.agent().get("/auth/providers").expect(200)
    expect(providers.body.map((p: { callbackUrl: string }) => p.callbackUrl)).toEqual([
      `${site.proxy.origin}/auth/callback/credentials`,
      `${site.proxy.origin}/auth/callback/idp`,
    ])
  })

  test("credentials sign-in: __Secure-authjs.session-token, https redirects, getSession reads it back", async () => {
    const site = await startSite({ ...options, mode })
    const agent = site.agent()
    const { token } = await csrfAt(agent)
    const signIn = await agent
      .post("/auth/callback/credentials")
      .type("form")
      .send({ csrfToken: token, username: "alice", password: "correct-horse", callbackUrl: "/dashboard" })
      .expect(302)
    expect(signIn.headers.location).toBe(`${site.proxy.origin}/dashboard`)
    const session = findCookie(signIn, "__Secure-authjs.session-token")
    expect(session).toMatchObject({ secure: true, path: "/", httpOnly: true, sameSite: "lax" })
    expect(session?.value).toBeTruthy()
    expect(findCookie(signIn, "authjs.session-token")).toBeUndefined()

    const whoami = await agent.get("/whoami").expect(200)
    expect(whoami.body.session.user.name).toBe("Alice")
    expect(whoami.body.auth.user.name).toBe("Alice")
    expect((await agent.get("/dashboard").expect(200)).body).toEqual({ name: "Alice" })
    expect((await agent.get("/auth/session").expect(200)).body.user.name).toBe("Alice")

    const signOut = await agent.post("/auth/signout").type("form").send({ csrfToken: (await csrfAt(agent)).token }).expect(302)
    expect(signOut.headers.location).toBe(`${site.proxy.origin}/`)
    expect(isCleared(findCookie(signOut, "__Secure-authjs.session-token"))).toBe(true)
    expect((await agent.get("/whoami").expect(200)).body.session).toBeNull()
  })

  test("requireAuth sends signed-out pages to https://<proxy>/auth/signin with an https callbackUrl", async () => {
    const site = await startSite({ ...options, mode })
    const response = await site.agent().get("/dashboard?tab=2").set("Accept", "text/html").expect(302)
    const callbackUrl = encodeURIComponent(`${site.proxy.origin}/dashboard?tab=2`)
    expect(response.headers.location).toBe(`${site.proxy.origin}/auth/signin?callbackUrl=${callbackUrl}`)
  })

  test("OpenID Connect: redirect_uri is https on the proxy, the callback signs in, getSession reads it", async () => {
    const site = await startSite({ ...options, mode })
    const agent = site.agent()
    const { token } = await csrfAt(agent)
    const start = await agent.post("/auth/signin/idp").type("form").send({ csrfToken: token, callbackUrl: "/dashboard" }).expect(302)
    const authorization = new URL(start.headers.location)
    expect(authorization.origin).toBe(site.idp.issuer)
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${site.proxy.origin}/auth/callback/idp`)
    expect(findCookie(start, "__Secure-authjs.pkce.code_verifier")).toMatchObject({ secure: true })

    const back = await site.idp.browse(authorization.href, `${site.proxy.origin}/auth/callback/idp`)
    expect(back.origin).toBe(site.proxy.origin)
    const callback = await agent.get(`${back.pathname}${back.search}`).expect(302)
    expect(callback.headers.location).toBe(`${site.proxy.origin}/dashboard`)
    expect(findCookie(callback, "__Secure-authjs.session-token")?.value).toBeTruthy()
    expect((await agent.get("/whoami").expect(200)).body.session.user).toMatchObject({ name: "Alice Liddell", email: "alice@example.com" })
  })
}

describe('(a) app.set("trust proxy", 1) and trustHost: true, the proxy sends X-Forwarded-*', () => {
  secureSuite({ trustProxy: true, trustHost: true }, "forwarded")

  test("the app's req.protocol and req.ip agree with the proxy (a client's X-Forwarded-For is not believed)", async () => {
    const site = await startSite({ mode: "forwarded", trustProxy: true, trustHost: true })
    const whoami = await site.agent().get("/whoami").set("X-Forwarded-For", "198.51.100.7").expect(200)
    expect(whoami.body).toMatchObject({ protocol: "https", secure: true })
    expect(whoami.body.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })
})

describe("(b) AUTH_URL=https://<proxy>/auth, no trust proxy, and a proxy that sends no X-Forwarded-* at all", () => {
  secureSuite({ authUrlPath: "/auth" }, "plain")

  test("X-Forwarded-* headers a client makes up change nothing", async () => {
    const site = await startSite({ mode: "forwarded", authUrlPath: "/auth" })
    const providers = await site.agent().get("/auth/providers").set("X-Forwarded-Host", "evil.example").expect(200)
    expect(providers.body[0].callbackUrl).toBe(`${site.proxy.origin}/auth/callback/credentials`)
  })
})

describe("(c) neither trust proxy nor AUTH_URL", () => {
  test("X-Forwarded-* from a hop Express does not trust are ignored (issue #12): the Host header and the connection decide, as for req.protocol", async () => {
    const site = await startSite({ mode: "forwarded" })
    const agent = site.agent()
    const { response } = await csrfAt(agent)
    expect(findCookie(response, "authjs.csrf-token")?.secure).toBeFalsy()
    expect(findCookie(response, "__Host-authjs.csrf-token")).toBeUndefined()
    const providers = await agent.get("/auth/providers").expect(200)
    expect(providers.body[0].callbackUrl).not.toBe(`${site.proxy.origin}/auth/callback/credentials`)
    expect(providers.body[0].callbackUrl).toMatch(/^http:\/\//)
    const whoami = await agent.get("/whoami").expect(200)
    // Express without trust proxy: the connection's scheme, and Gatehouse agrees with it.
    expect(whoami.body.protocol).toBe("http")
  })

  test("a proxy that sends no X-Forwarded-*: plain cookie names without Secure, URLs on the backend's http origin", async () => {
    const site = await startSite({ mode: "plain" })
    const agent = site.agent()
    const backendOrigin = new URL(site.proxy.target).origin
    const { token, response } = await csrfAt(agent)
    const csrf = findCookie(response, "authjs.csrf-token")
    expect(csrf?.secure).toBeFalsy()
    expect(findCookie(response, "__Host-authjs.csrf-token")).toBeUndefined()
    const providers = await agent.get("/auth/providers").expect(200)
    expect(providers.body[0].callbackUrl).toBe(`${backendOrigin}/auth/callback/credentials`)
    const signIn = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "correct-horse" }).expect(302)
    // The browser is sent to the backend's address, not the site it is on.
    expect(signIn.headers.location).toBe(`${backendOrigin}/`)
    const session = findCookie(signIn, "authjs.session-token")
    expect(session?.value).toBeTruthy()
    expect(session?.secure).toBeFalsy()
    // The cookie still comes back through the proxy (it is not Secure), so the session reads.
    expect((await agent.get("/whoami").expect(200)).body.session.user.name).toBe("Alice")
  })

  test("in production, building the router without trustHost or AUTH_URL throws UntrustedHost (trust proxy does not count)", () => {
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = "production"
    try {
      const app = express()
      app.set("trust proxy", 1)
      expect(() => app.use("/auth", authRouter(testConfig()))).toThrow(expect.objectContaining({ name: "UntrustedHost" }))
    } finally {
      process.env.NODE_ENV = previous
    }
  })
})
