// Gatehouse, signed in through its own credentials flow (CSRF token, then the callback POST).
import { fileURLToPath } from "node:url"
import { CookieJar, cookiePairs, headerValues, send, verifyProtected } from "../lib/http.js"

const server = fileURLToPath(new URL("../servers/gatehouse.js", import.meta.url))
const EMAIL = "bench@example.com"
const SESSION_COOKIE = "authjs.session-token"

/** Signs in like a browser posting the built-in form; returns the session cookie header. */
async function signIn({ origin }) {
  const jar = new CookieJar()
  const { csrfToken } = await (await send(jar, `${origin}/auth/csrf`)).json()
  const response = await send(jar, `${origin}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: "bench", callbackUrl: "/protected" }).toString(),
  })
  if (response.status !== 302 || !jar.cookies.has(SESSION_COOKIE)) throw new Error(`Gatehouse sign-in answered ${response.status}`)
  // Every cookie the flow left, as a browser sends them (the CSRF cookie too).
  return { cookie: jar.header() }
}

const protectedRoute = (prepared) => [{ method: "GET", path: "/protected", headers: { cookie: prepared.cookie } }]
const verify = ({ origin, prepared }) => verifyProtected(origin, { cookie: prepared.cookie }, EMAIL)

/**
 * One sign-in per iteration: GET /auth/csrf (token and cookie kept on the connection's context),
 * then the POST, which must redirect to the callback URL with a session cookie.
 */
function signInRequests(prepared, tally) {
  return [
    {
      method: "GET",
      path: "/auth/csrf",
      onResponse: (status, body, context, headers) => {
        context.csrfToken = status === 200 ? JSON.parse(body).csrfToken : ""
        context.cookie = cookiePairs(headers)
      },
    },
    {
      method: "POST",
      path: "/auth/callback/credentials",
      setupRequest: (request, context) => ({
        ...request,
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: context.cookie },
        body: new URLSearchParams({ csrfToken: context.csrfToken, email: EMAIL, password: "bench", callbackUrl: "/protected" }).toString(),
      }),
      onResponse: (status, body, context, headers) => {
        const location = headerValues(headers, "location")[0] ?? ""
        if (status !== 302 || !location.endsWith("/protected")) tally.fail(`${status} ${location}`)
        else if (!cookiePairs(headers).includes(`${SESSION_COOKIE}=`)) tally.fail("no session cookie")
      },
    },
  ]
}

async function verifySignIn({ origin }) {
  const { cookie } = await signIn({ origin })
  await verifyProtected(origin, { cookie }, EMAIL)
}

export default [
  { id: "gatehouse-require-auth", name: "Gatehouse requireAuth (cookie)", library: "gatehouse", job: "cookie-read", server, env: { BENCH_MODE: "cookie" }, prepare: signIn, requests: protectedRoute, verify },
  {
    id: "gatehouse-session-endpoint",
    name: "Gatehouse GET /auth/session (cookie)",
    library: "gatehouse",
    job: "session-endpoint",
    server,
    env: { BENCH_MODE: "cookie" },
    prepare: signIn,
    requests: (prepared) => [{ method: "GET", path: "/auth/session", headers: { cookie: prepared.cookie } }],
    verify: async ({ origin, prepared }) => {
      const session = await (await fetch(`${origin}/auth/session`, { headers: { cookie: prepared.cookie } })).json()
      if (session?.user?.email !== EMAIL) throw new Error(`GET /auth/session answered ${JSON.stringify(session)}`)
    },
  },
  {
    id: "gatehouse-require-auth-redis",
    name: "Gatehouse requireAuth (cookie, revocation checks on Redis)",
    library: "gatehouse",
    job: "cookie-read",
    server,
    env: { BENCH_MODE: "cookie", BENCH_STORE: "redis" },
    prepare: signIn,
    requests: protectedRoute,
    verify,
  },
  // Issue #33: the same route with bot protection on; a request without a challenge must cost the same.
  { id: "gatehouse-require-auth-bot", name: "Gatehouse requireAuth (cookie, bot protection on)", library: "gatehouse", job: "cookie-read", server, env: { BENCH_MODE: "cookie", BENCH_BOT: "1" }, prepare: signIn, requests: protectedRoute, verify },
  { id: "gatehouse-pg", name: "Gatehouse requireAuth (PostgreSQL session)", library: "gatehouse", job: "db-read-pg", server, env: { BENCH_MODE: "pg" }, prepare: signIn, requests: protectedRoute, verify },
  { id: "gatehouse-pg-redis", name: "Gatehouse requireAuth (PostgreSQL session, Redis pub/sub)", library: "gatehouse", job: "db-read-pg", server, env: { BENCH_MODE: "pg", BENCH_STORE: "redis" }, prepare: signIn, requests: protectedRoute, verify },
  // Issue #27: requireAuth({ permission: "project:write" }), the user a member holding it.
  {
    id: "gatehouse-permission",
    name: "Gatehouse requireAuth({ permission }) (cookie, organizations)",
    library: "gatehouse",
    job: "permission-cookie",
    server,
    env: { BENCH_MODE: "cookie", BENCH_ORGS: "1" },
    prepare: signIn,
    requests: protectedRoute,
    verify,
  },
  {
    id: "gatehouse-permission-pg",
    name: "Gatehouse requireAuth({ permission }) (PostgreSQL session, organizations)",
    library: "gatehouse",
    job: "permission-pg",
    server,
    env: { BENCH_MODE: "pg", BENCH_ORGS: "1" },
    prepare: signIn,
    requests: protectedRoute,
    verify,
  },
  { id: "gatehouse-sqlite", name: "Gatehouse requireAuth (SQLite session)", library: "gatehouse", job: "db-read-sqlite", server, env: { BENCH_MODE: "sqlite" }, prepare: signIn, requests: protectedRoute, verify },
  {
    id: "gatehouse-signin",
    name: "Gatehouse credentials sign-in",
    library: "gatehouse",
    job: "signin",
    server,
    env: { BENCH_MODE: "cookie" },
    prepare: async () => ({}),
    requests: signInRequests,
    requestsPerOp: 2,
    verify: verifySignIn,
  },
]
