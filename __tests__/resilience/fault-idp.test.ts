/**
 * FAULT-04 — an IdP that hangs or answers garbage (SECURITY-CATALOG.md §14), the cases
 * __tests__/oauth/failures.test.ts does not cover: discovery that returns HTML or never answers;
 * a token endpoint answering `{}`, broken JSON, a number as the access token, 30 MB of junk, or a
 * redirect to the cloud metadata address (or any other server); a userinfo endpoint answering
 * `[]` or a string. ROGUE-OP is a real HTTP server (support/fault-rogue-op.ts); the app runs on a
 * loopback port. Each case ends on the named error within a bound, with no session, no user, no
 * 5xx, the process alive and its memory back near where it was. (An over-long answer or a hang
 * ends with the named ProviderResponseTooLarge / ProviderTimeout since issue #13.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { AuthError } from "../../lib/errors.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import { findCookie, makeApp, request, reserve, testConfig, type Agent } from "../helpers/app.js"
import { hang, recorder, sendJson, startRogueOp, type Handler, type RogueOp } from "./support/fault-rogue-op.js"

const SESSION = "authjs.session-token"
/** The bound for answers the IdP gave at once (garbage is refused without waiting). */
const QUICK_MS = 10_000

let op: RogueOp
let site: Awaited<ReturnType<typeof reserve>>
let memory: MemoryAdapterInstance
const errors = jest.fn<(error: Error) => void>()

function providers(op: RogueOp): OAuthProviderConfig[] {
  return [
    {
      id: "rogue",
      name: "Rogue OAuth",
      type: "oauth",
      authorization: { url: `${op.url}/auth`, params: { scope: "email" } },
      token: `${op.url}/token`,
      userinfo: `${op.url}/me`,
      clientId: "rogue-client",
      clientSecret: "rogue-secret-0123456789abcdef",
    },
    { id: "rogue-oidc", name: "Rogue OIDC", type: "oidc", issuer: op.url, clientId: "rogue-client", clientSecret: "rogue-secret-0123456789abcdef" },
  ]
}

beforeAll(async () => {
  op = await startRogueOp()
  site = await reserve()
  memory = MemoryAdapter()
  site.attach(makeApp(testConfig({ providers: providers(op), adapter: memory, logger: { error: errors } })))
})

afterAll(async () => {
  await site.close()
  await op.close()
})

afterEach(() => {
  errors.mockClear()
})

async function csrf(agent: Agent): Promise<string> {
  return (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
}

/** Start, the rogue's instant approval, the callback: returns the callback's answer and how long it took. */
async function signIn(token: Handler, userinfo?: Handler) {
  op.token = token
  if (userinfo) op.userinfo = userinfo
  const agent = request.agent(site.url) as Agent
  const csrfToken = await csrf(agent)
  const start = await agent.post("/auth/signin/rogue").type("form").send({ csrfToken }).timeout(QUICK_MS)
  expect(start.status).toBe(302)
  const approved = await fetch(String(start.headers.location), { redirect: "manual" })
  const back = new URL(String(approved.headers.get("location")))
  op.seen.length = 0
  const callback = await agent.get(`${back.pathname}${back.search}`).timeout(QUICK_MS)
  // The failure under test is the IdP's answer, not an earlier check.
  expect(op.seen[0]).toBe("/token")
  if (userinfo) expect(op.seen).toContain("/me")
  return { agent, callback }
}

async function expectRefused(response: { status: number; headers: Record<string, unknown>; text: string }, agent: Agent, error: string, page = "/auth/signin"): Promise<void> {
  expect(response.status).toBe(302)
  const url = new URL(String(response.headers.location))
  expect(url.origin).toBe(site.url)
  expect(url.pathname).toBe(page)
  expect(url.searchParams.get("error")).toBe(error)
  expect(findCookie(response, SESSION)?.value).toBeFalsy()
  expect(response.text).not.toMatch(/rogue-secret|\bat .+:\d+:\d+|node_modules/)
  expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
  expect([memory.store.users.size, memory.store.accounts.size, memory.store.sessions.size]).toEqual([0, 0, 0])
  // ALIVE
  await agent.get("/auth/providers").expect(200)
}

const loggedTypes = () => errors.mock.calls.map(([error]) => (error as AuthError).type ?? error.name)

describe("FAULT-04 (c): the token endpoint answers garbage", () => {
  it.each<[string, Handler]>([
    ["200 with {}", sendJson(200, {})],
    ["200 with broken JSON", sendJson(200, '{"access_token": "at", ')],
    ['200 with {"access_token":123,"token_type":"bearer"}', sendJson(200, { access_token: 123, token_type: "bearer" })],
    ["500 with an HTML page", (_req, res) => void res.writeHead(500, { "Content-Type": "text/html" }).end("<h1>oops</h1>")],
    ["302 to the cloud metadata address", (_req, res) => void res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end()],
  ])("%s: OAuthCallbackError, no session, no user, logged", async (_name, token) => {
    const { agent, callback } = await signIn(token)
    await expectRefused(callback, agent, "OAuthCallbackError")
    expect(loggedTypes()).toContain("OAuthCallbackError")
  })

  it("a redirect from the token endpoint is never followed (the target server gets no request)", async () => {
    const target = await recorder()
    try {
      const { agent, callback } = await signIn((_req, res) => void res.writeHead(307, { Location: `${target.url}/token` }).end())
      await expectRefused(callback, agent, "OAuthCallbackError")
      expect(target.hits).toEqual([])
    } finally {
      await target.close()
    }
  })

  // Issue #13: reading stops at the provider's cap (1 MiB by default), with a named error.
  it("30 MB of junk: ProviderResponseTooLarge on the error page, the process alive, memory back near its baseline after GC", async () => {
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const baseline = process.memoryUsage().heapUsed
    const junk = Buffer.alloc(1024 * 1024, "x")
    const { agent, callback } = await signIn((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" })
      for (let i = 0; i < 30; i++) res.write(junk)
      res.end()
    })
    await expectRefused(callback, agent, "ProviderResponseTooLarge", "/auth/error")
    expect(loggedTypes()).toContain("ProviderResponseTooLarge")
    if (gc) {
      gc()
      await new Promise((resume) => setTimeout(resume, 100))
      gc()
      expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(64 * 1024 * 1024)
    }
  })
})

describe("FAULT-04 (e): the userinfo endpoint answers something that is not a profile", () => {
  it.each<[string, Handler]>([
    ["[]", sendJson(200, [])],
    ['"str"', sendJson(200, "\"str\"")],
    ["null", sendJson(200, "null")],
  ])("%s: OAuthCallbackError, no session, no user", async (_name, userinfo) => {
    const { agent, callback } = await signIn(sendJson(200, { access_token: "at-1", token_type: "bearer" }), userinfo)
    await expectRefused(callback, agent, "OAuthCallbackError")
  })
})

describe("FAULT-04 (a)/(b): discovery", () => {
  async function start(discovery: Handler, bound: number) {
    op.discovery = discovery
    const agent = request.agent(site.url) as Agent
    const csrfToken = await csrf(agent)
    op.seen.length = 0
    const response = await agent.post("/auth/signin/rogue-oidc").type("form").send({ csrfToken }).timeout(bound)
    expect(op.seen).toContain("/.well-known/openid-configuration")
    return { agent, response }
  }

  it("an HTML page instead of the discovery document: OAuthSignin, no check cookies", async () => {
    const { agent, response } = await start((_req, res) => void res.writeHead(200, { "Content-Type": "text/html" }).end("<html>maintenance</html>"), QUICK_MS)
    await expectRefused(response, agent, "OAuthSignin")
    expect(findCookie(response, "authjs.state")).toBeUndefined()
    expect(findCookie(response, "authjs.pkce.code_verifier")).toBeUndefined()
  })

  // Issue #13: every call to a provider ends within its `outbound.timeout` (15 s by default).
  it("discovery that never answers: ProviderTimeout within the request timeout (no hang), the app alive meanwhile", async () => {
    const pending = start(hang, 45_000)
    // While the sign-in waits, the rest of the app answers.
    await (request.agent(site.url) as Agent).get("/auth/providers").timeout(QUICK_MS).expect(200)
    const { agent, response } = await pending
    await expectRefused(response, agent, "ProviderTimeout", "/auth/error")
    expect(loggedTypes()).toContain("ProviderTimeout")
  }, 60_000)
})

describe("control: the same flow with sane answers", () => {
  it("signs in (so the refusals above come from the answers, not from the flow)", async () => {
    const { agent, callback } = await signIn(
      sendJson(200, { access_token: "at-1", token_type: "bearer" }),
      sendJson(200, { sub: "rogue-1", email: "rogue@example.com", name: "Rogue" }),
    )
    expect([callback.status, callback.headers.location]).toEqual([302, `${site.url}/`])
    expect((await agent.get("/auth/session").expect(200)).body.user.email).toBe("rogue@example.com")
  })
})
