/**
 * INPUT-09 (SECURITY-CATALOG.md §13): a property-based fuzz (fast-check) over every endpoint of the
 * router and the app's protected routes: random methods, request targets (origin-form,
 * absolute-form, `*`), actions, provider ids (configured, prototype keys, encoded junk), extra
 * segments, query and body fields with the names Gatehouse reads, content types, headers (Host,
 * X-Forwarded-*, Origin, Sec-Fetch-Site, Accept, ...) and cookies drawn from none, genuine,
 * genuine-with-mutations (SESS-01/02 operators) and random bytes. Requests go over a raw socket to
 * the app listening on 127.0.0.1, so nothing is normalised by a client library.
 *
 * The apps: every provider type (credentials, email to a real SMTP sink, OIDC against a real
 * `oidc-provider`, passkeys) on the SQL adapter with SQLite, once with cookie (JWE) sessions and
 * once with database sessions.
 *
 * Property, for every request: a status below 500 (Node's own 400/431 included), NO-LEAK (no stack
 * trace, module path or secret), no CORS grant, no session cookie unless the request carried
 * alice's genuine session or a genuine csrf pair with a real password, `/auth/session` shows alice
 * or nobody, every HTML page's DOM is clean (the only script is the router's own asset), and the
 * process stays alive (ALIVE after each request, no unhandled rejection or uncaught exception).
 *
 * Runtime is bounded: FUZZ_RUNS runs per app (default 250) from a fixed seed (FUZZ_SEED, default
 * 20261122). To run more, e.g. nightly:
 *   FUZZ_RUNS=20000 FUZZ_SEED=$RANDOM NODE_OPTIONS=--experimental-vm-modules npx jest __tests__/security/fuzz.test.ts
 * A failure prints the seed, the path to replay and the shrunk request; add that request to
 * REGRESSIONS so it runs first on every later run.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import fc from "fast-check"
import {
  AUTH_URL, CSRF, SESSION, assertNoLeak, attr, call, csrfPair, elements, listen, preserveEnv, rawHeader, rawHttp, setCookies, signIn, type RawResponse,
} from "./fixtures.js"
import { startFullApp, type FullApp } from "./full-app.js"
import { mayIssueSession, request, serialize, type FuzzRequest, type Genuine } from "./fuzz-requests.js"
import { NONCE, PKCE, STATE, quietIdp, startFlow } from "./oauth/support.js"

jest.setTimeout(120_000)
preserveEnv("AUTH_URL")
quietIdp()

const RUNS = Number(process.env.FUZZ_RUNS ?? 250)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const SCRIPT = `${AUTH_URL}/assets/webauthn.js`

/** Counterexamples found so far, replayed first on every run. */
const REGRESSIONS: FuzzRequest[] = [
  // requireAuth on an absolute-form request target (GET http://app.test:3000/dashboard HTTP/1.1).
  { method: "GET", target: "http://app.test:3000/dashboard", query: [], headers: [["Accept", "text/html"]], cookies: [] },
  { method: "GET", target: "http://evil.example/api/me", query: [], headers: [["Accept", "text/html"]], cookies: [] },
]

interface Target {
  full: FullApp
  port: number
  close: () => Promise<void>
  genuine: Record<Genuine, string>
}

const faults: unknown[] = []
const onFault = (error: unknown) => void faults.push(error)

async function prepare(strategy: "cookie" | "database"): Promise<Target> {
  const full = await startFullApp({ strategy, label: `fuzz_${strategy.slice(0, 2)}` })
  const { server, port, close } = await listen(full.app)
  const { session } = await signIn(server)
  const pair = await csrfPair(server)
  const flow = await startFlow(server, "idp")
  const options = await call(server, "GET", "/auth/webauthn-options/passkey?action=authenticate")
  const challenge = setCookies(options).find((c) => c.name === "authjs.challenge")?.value ?? ""
  const genuine: Record<Genuine, string> = {
    session: session.slice(SESSION.length + 1),
    csrfCookie: pair.value,
    csrfToken: pair.token,
    state: flow.jar.get(STATE) ?? "",
    pkce: flow.jar.get(PKCE) ?? "",
    nonce: flow.jar.get(NONCE) ?? "",
    challenge,
  }
  for (const [name, v] of Object.entries(genuine)) expect([name, v.length > 20]).toEqual([name, true])
  return { full, port, close, genuine }
}

/** The body as sent, with chunked transfer coding undone. */
function bodyOf(res: RawResponse): string {
  if (!/chunked/i.test(rawHeader(res, "transfer-encoding") ?? "")) return res.body
  let rest = res.body
  let out = ""
  for (;;) {
    const end = rest.indexOf("\r\n")
    const size = parseInt(rest.slice(0, end), 16)
    if (!size) return out
    out += rest.slice(end + 2, end + 2 + size)
    rest = rest.slice(end + 4 + size)
  }
}

function pathOf(target: string): string {
  const path = target.startsWith("http") ? target.replace(/^https?:\/\/[^/]*/, "") : target
  return path.split("?")[0] ?? ""
}

function judge(req: FuzzRequest, res: RawResponse): void {
  expect(Number.isInteger(res.status)).toBe(true)
  expect(res.status).toBeGreaterThanOrEqual(100)
  expect(res.status).toBeLessThan(500)
  const body = bodyOf(res)
  assertNoLeak({ headers: Object.fromEntries(res.headers.map(([n], i) => [`${n}#${i}`, res.headers[i]![1]])), text: body })
  expect(rawHeader(res, "access-control-allow-origin")).toBeUndefined()
  const issued = res.headers.filter(([name, v]) => name === "set-cookie" && /^authjs\.session-token(\.\d+)?=[^;]/.test(v))
  if (!mayIssueSession(req)) expect(issued).toEqual([])
  const type = rawHeader(res, "content-type") ?? ""
  const path = pathOf(req.target)
  if (req.method === "GET" && res.status === 200 && type.startsWith("application/json") && ["/auth/session", "/auth/session/", "/api/me"].includes(path)) {
    const seen = JSON.parse(body) as { user?: { email?: string } } | null
    if (seen !== null) expect(seen.user?.email).toBe("alice@example.com")
  }
  if (type.startsWith("text/html") && body) {
    for (const node of elements(body)) {
      if (node.tagName === "script") expect(attr(node, "src")).toBe(SCRIPT)
      expect(["iframe", "object", "embed", "svg", "base"]).not.toContain(node.tagName)
      for (const a of node.attrs ?? []) {
        expect(a.name.startsWith("on")).toBe(false)
        // eslint-disable-next-line no-control-regex
        if (["href", "src", "action", "formaction"].includes(a.name)) expect(a.value.replace(/[\u0000-\u0020]/g, "")).not.toMatch(/^(javascript|data|vbscript):/i)
      }
    }
  }
}

async function alive(port: number): Promise<void> {
  const res = await rawHttp(port, "GET /auth/providers HTTP/1.1\r\nHost: app.test:3000\r\nConnection: close\r\n\r\n")
  expect(res.status).toBe(200)
}

function property(target: () => Target) {
  return fc.asyncProperty(request, async (req) => {
    const { port, genuine } = target()
    const res = await rawHttp(port, serialize(req, genuine))
    judge(req, res)
    await alive(port)
    expect(faults).toEqual([])
  })
}

beforeAll(() => {
  process.on("unhandledRejection", onFault)
  process.on("uncaughtException", onFault)
})
afterAll(() => {
  process.off("unhandledRejection", onFault)
  process.off("uncaughtException", onFault)
})

describe.each(["cookie", "database"] as const)("INPUT-09 fuzz over every endpoint, %s sessions", (strategy) => {
  let target: Target
  beforeAll(async () => {
    target = await prepare(strategy)
  })
  afterAll(async () => {
    await target?.close()
    await target?.full.close()
  })

  it("the generators reach every action, provider and body kind (the fuzz is not vacuous)", () => {
    const sample = fc.sample(request, { numRuns: 2000, seed: SEED })
    const paths = new Set(sample.map((r) => pathOf(r.target).split("/").slice(0, 4).join("/")))
    for (const path of ["/auth/signin/credentials", "/auth/callback/idp", "/auth/callback/nodemailer", "/auth/callback/passkey", "/auth/webauthn-options/passkey", "/auth/signout", "/auth/session", "/auth/csrf", "/auth/providers", "/auth/error", "/auth/verify-request", "/auth/assets/webauthn.js", "/dashboard"]) {
      expect([path, paths.has(path)]).toEqual([path, true])
    }
    expect(sample.some((r) => r.body?.form && r.cookies.some(([name]) => name === CSRF))).toBe(true)
    expect(sample.some((r) => r.body?.json !== undefined)).toBe(true)
    expect(sample.some((r) => r.target.startsWith("http"))).toBe(true)
  })

  it("never 5xx, never a leak, never another user's session, never a crash", async () => {
    await fc.assert(property(() => target), { numRuns: RUNS, seed: SEED, examples: REGRESSIONS.map((r) => [r]) })
    expect(await target.full.rows()).toMatchObject({ authenticators: 0 })
  })
})
