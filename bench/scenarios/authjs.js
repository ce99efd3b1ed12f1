// Auth.js (@auth/express) scenarios: see bench/lib/scenario.js for the contract and
// bench/servers/authjs.js for the server (BENCH_MODE cookie | pg).
//
// Signed-in clients send every cookie Auth.js's own flow left in their jar (session token, CSRF
// token, callback URL), as a browser would after signing in.
import { fileURLToPath } from "node:url"
import { CookieJar, send, verifyProtected } from "../lib/http.js"

const SERVER = fileURLToPath(new URL("../servers/authjs.js", import.meta.url))
const EMAIL = "bench@example.com"
const PASSWORD = "bench"
const SESSION_COOKIE = "authjs.session-token"
const FORM = { "content-type": "application/x-www-form-urlencoded" }

/** GET /auth/csrf into the jar; returns the token from the JSON body. */
async function csrfToken(origin, jar) {
  const response = await send(jar, `${origin}/auth/csrf`)
  const body = await response.json()
  if (response.status !== 200 || typeof body.csrfToken !== "string") throw new Error(`GET /auth/csrf answered ${response.status} ${JSON.stringify(body)}`)
  return body.csrfToken
}

/** Throws unless `response` is a 302 to `callbackUrl` and the jar now holds a session cookie. */
function expectSignedIn(response, jar, callbackUrl, what) {
  const location = response.headers.get("location")
  if (response.status !== 302 || location !== callbackUrl || !jar.cookies.get(SESSION_COOKIE)) {
    throw new Error(`${what} answered ${response.status} to ${location} (expected 302 to ${callbackUrl} with ${SESSION_COOKIE} set)`)
  }
}

/** Credentials sign-in (cookie mode): CSRF token, then the callback POST. Returns the jar. */
async function credentialsSignIn(origin) {
  const jar = new CookieJar()
  const callbackUrl = `${origin}/protected`
  const token = await csrfToken(origin, jar)
  const response = await send(jar, `${origin}/auth/callback/credentials`, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ csrfToken: token, email: EMAIL, password: PASSWORD, callbackUrl }).toString(),
  })
  expectSignedIn(response, jar, callbackUrl, "POST /auth/callback/credentials")
  return jar
}

/**
 * Email (magic link) sign-in (pg mode): CSRF token, POST /auth/signin/nodemailer, the link the
 * server kept instead of mailing it, then GET the link. Returns the jar.
 */
async function emailSignIn(origin) {
  const jar = new CookieJar()
  const callbackUrl = `${origin}/protected`
  const token = await csrfToken(origin, jar)
  const asked = await send(jar, `${origin}/auth/signin/nodemailer`, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ csrfToken: token, email: EMAIL, callbackUrl }).toString(),
  })
  const verifyPage = asked.headers.get("location") ?? ""
  if (asked.status !== 302 || !verifyPage.startsWith(`${origin}/auth/verify-request`)) {
    throw new Error(`POST /auth/signin/nodemailer answered ${asked.status} to ${verifyPage} (expected 302 to /auth/verify-request)`)
  }
  const kept = await fetch(`${origin}/__bench/last-link?email=${encodeURIComponent(EMAIL)}`)
  if (kept.status !== 200) throw new Error(`GET /__bench/last-link answered ${kept.status}`)
  const { link } = await kept.json()
  if (!link.startsWith(`${origin}/auth/callback/nodemailer?`)) throw new Error(`unexpected magic link ${link}`)
  expectSignedIn(await send(jar, link), jar, callbackUrl, "GET <magic link>")
  return jar
}

/** Throws unless GET <origin>/auth/session with `cookie` answers 200 with the user's email. */
async function verifySessionEndpoint(origin, cookie) {
  const response = await fetch(`${origin}/auth/session`, { headers: { cookie }, redirect: "manual" })
  const text = await response.text()
  let email
  try {
    email = JSON.parse(text)?.user?.email
  } catch {
    email = undefined
  }
  if (response.status !== 200 || email !== EMAIL) throw new Error(`GET /auth/session answered ${response.status} ${text.slice(0, 200)} (expected 200 with user.email ${EMAIL})`)
}

/** Set-Cookie lines from autocannon's header object (names as the server wrote them). */
function setCookieLines(headers) {
  const lines = []
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === "set-cookie") lines.push(...(Array.isArray(value) ? value : [value]))
  }
  return lines
}

function header(headers, wanted) {
  for (const [name, value] of Object.entries(headers ?? {})) if (name.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value
  return undefined
}

/** A successful credentials POST: a 302 to the callback URL that sets a session cookie. */
function signedIn(status, headers, callbackUrl) {
  return (
    status === 302 &&
    header(headers, "location") === callbackUrl &&
    setCookieLines(headers).some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !line.startsWith(`${SESSION_COOKIE}=;`))
  )
}

/** The sign-in as autocannon repeats it on one connection: GET /auth/csrf, then the POST. */
function signinRequests({ origin }, tally) {
  const callbackUrl = `${origin}/protected`
  return [
    {
      method: "GET",
      path: "/auth/csrf",
      onResponse(status, body, context, headers) {
        if (status !== 200) return
        try {
          context.csrfToken = JSON.parse(body).csrfToken
        } catch {
          return
        }
        // name=value of each cookie set (the CSRF token and the callback URL).
        context.cookie = setCookieLines(headers)
          .map((line) => line.split(";")[0].trim())
          .filter((pair) => !pair.endsWith("="))
          .join("; ")
      },
    },
    {
      method: "POST",
      path: "/auth/callback/credentials",
      headers: FORM,
      setupRequest(request, context) {
        // No token (the GET failed, and counts as such): skip the POST, start the next sign-in.
        if (!context.csrfToken) return null
        return {
          ...request,
          headers: { ...request.headers, cookie: context.cookie },
          body: new URLSearchParams({ csrfToken: context.csrfToken, email: EMAIL, password: PASSWORD, callbackUrl }).toString(),
        }
      },
      onResponse(status, _body, _context, headers) {
        if (!signedIn(status, headers, callbackUrl)) tally?.fail(`${status} ${header(headers, "location") ?? ""}`)
      },
    },
  ]
}

/**
 * Plays `signinRequests` once with fetch, through the same hooks autocannon calls (the POST's
 * check included), and returns the session cookie the POST set.
 */
async function playSignin(prepared) {
  const [csrf, post] = signinRequests(prepared)
  const context = {}
  const first = await fetch(`${prepared.origin}${csrf.path}`, { method: csrf.method, redirect: "manual" })
  csrf.onResponse(first.status, await first.text(), context, { "set-cookie": first.headers.getSetCookie() })
  const request = post.setupRequest({ ...post, headers: { ...post.headers } }, context)
  if (!request) throw new Error(`GET /auth/csrf answered ${first.status}; no CSRF token`)
  const second = await fetch(`${prepared.origin}${request.path}`, { method: request.method, headers: request.headers, body: request.body, redirect: "manual" })
  await second.text()
  const headers = { location: second.headers.get("location"), "set-cookie": second.headers.getSetCookie() }
  if (!signedIn(second.status, headers, `${prepared.origin}/protected`)) {
    throw new Error(`sign-in POST answered ${second.status} to ${headers.location} (expected 302 to ${prepared.origin}/protected with ${SESSION_COOKIE})`)
  }
  const jar = new CookieJar()
  jar.take(second)
  return `${SESSION_COOKIE}=${jar.cookies.get(SESSION_COOKIE)}`
}

const cookieRequests = ({ cookie }) => [{ method: "GET", path: "/protected", headers: { cookie } }]

export default [
  {
    id: "authjs-get-session",
    name: "Auth.js getSession (cookie)",
    library: "authjs",
    job: "cookie-read",
    server: SERVER,
    env: { BENCH_MODE: "cookie" },
    prepare: async ({ origin }) => ({ origin, cookie: (await credentialsSignIn(origin)).header() }),
    requests: cookieRequests,
    verify: ({ origin, prepared }) => verifyProtected(origin, { cookie: prepared.cookie }, EMAIL),
  },
  {
    id: "authjs-session-endpoint",
    name: "Auth.js GET /auth/session",
    library: "authjs",
    job: "session-endpoint",
    server: SERVER,
    env: { BENCH_MODE: "cookie" },
    prepare: async ({ origin }) => ({ origin, cookie: (await credentialsSignIn(origin)).header() }),
    requests: ({ cookie }) => [{ method: "GET", path: "/auth/session", headers: { cookie } }],
    verify: ({ origin, prepared }) => verifySessionEndpoint(origin, prepared.cookie),
  },
  {
    id: "authjs-pg",
    name: "Auth.js getSession (@auth/pg-adapter)",
    library: "authjs",
    job: "db-read-pg",
    server: SERVER,
    env: { BENCH_MODE: "pg" },
    prepare: async ({ origin }) => ({ origin, cookie: (await emailSignIn(origin)).header() }),
    requests: cookieRequests,
    verify: ({ origin, prepared }) => verifyProtected(origin, { cookie: prepared.cookie }, EMAIL),
  },
  {
    id: "authjs-signin",
    name: "Auth.js credentials sign-in",
    library: "authjs",
    job: "signin",
    server: SERVER,
    env: { BENCH_MODE: "cookie" },
    prepare: async ({ origin }) => {
      await credentialsSignIn(origin)
      return { origin }
    },
    requests: signinRequests,
    requestsPerOp: 2,
    verify: async ({ origin, prepared }) => {
      const cookie = await playSignin(prepared)
      await verifyProtected(origin, { cookie }, EMAIL)
    },
  },
]
