// Gatehouse's Password provider (issue #18): one sign-in per iteration, as the built-in form posts
// it (GET /auth/csrf, then POST /auth/callback/password). The scrypt check dominates; the table
// shows it next to the credentials sign-in (gatehouse-signin). No target: it is reported.
import { fileURLToPath } from "node:url"
import { CookieJar, cookiePairs, headerValues, send, verifyProtected } from "../lib/http.js"

const server = fileURLToPath(new URL("../servers/password.js", import.meta.url))
const EMAIL = "bench@example.com"
const PASSWORD = "bench password of good length"
const SESSION_COOKIE = "authjs.session-token"

function signInRequests(_prepared, tally) {
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
      path: "/auth/callback/password",
      setupRequest: (request, context) => ({
        ...request,
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: context.cookie },
        body: new URLSearchParams({ csrfToken: context.csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: "/protected" }).toString(),
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
  const jar = new CookieJar()
  const { csrfToken } = await (await send(jar, `${origin}/auth/csrf`)).json()
  const response = await send(jar, `${origin}/auth/callback/password`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: "/protected" }).toString(),
  })
  if (response.status !== 302 || !jar.cookies.has(SESSION_COOKIE)) throw new Error(`Password sign-in answered ${response.status}`)
  await verifyProtected(origin, { cookie: jar.header() }, EMAIL)
}

export default [
  {
    id: "gatehouse-password-signin",
    name: "Gatehouse password sign-in (scrypt N=2^17)",
    library: "gatehouse",
    job: "signin",
    server,
    prepare: async () => ({}),
    requests: signInRequests,
    requestsPerOp: 2,
    verify: verifySignIn,
  },
]
