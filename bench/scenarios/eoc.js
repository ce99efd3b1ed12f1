// express-openid-connect (default appSession cookie store): GET /protected with the appSession
// cookie it set at the end of a real authorization code sign-in against oidc-provider.
import { fileURLToPath } from "node:url"
import { CookieJar, send, verifyProtected } from "../lib/http.js"
import { startServer } from "../lib/process.js"

const EMAIL = "bench@example.com"
const CLIENT = { BENCH_CLIENT_ID: "bench-eoc", BENCH_CLIENT_SECRET: "bench-eoc-client-secret-that-is-long-enough" }
const server = (file) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url))

async function expectRedirect(response, what) {
  const location = response.headers.get("location")
  if (response.status < 300 || response.status > 399 || !location) {
    throw new Error(`${what} answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`)
  }
  return new URL(location, response.url)
}

/**
 * Signs in the way a browser would, with plain HTTP: the app's /login sends the user to the IdP,
 * which shows its login form; the form post sends the user back to the app's /callback with a
 * code, which the app exchanges at the IdP and turns into its appSession cookie. Two cookie jars:
 * the app's cookies and the IdP's (a browser would send both to both, cookies ignore ports; the
 * loaded request carries only the app's own, as it would on a real deployment).
 */
async function signIn({ origin }) {
  const app = new CookieJar()
  const idp = new CookieJar()

  // (The issuer is in the server's environment, from services, not in what prepare receives:
  // where GET /login sends the user tells it.)
  let next = await expectRedirect(await send(app, `${origin}/login`), "GET /login")
  const issuer = next.origin
  if (issuer === origin) throw new Error(`GET /login sent the user to ${next.href}, not to the IdP`)
  // The IdP's authorization endpoint sends the user to its login page.
  next = await expectRedirect(await send(idp, next), "the IdP's authorization endpoint")
  const page = await send(idp, next)
  const form = /<form method="post" action="([^"]+)"/.exec(await page.text())
  if (page.status !== 200 || !form) throw new Error(`the IdP's login page answered ${page.status} without its form`)
  // The form post finishes the login interaction and resumes the authorization request, which
  // (consent being implied for this client) sends the user back to the app's callback.
  next = await expectRedirect(
    await send(idp, new URL(form[1], next), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: EMAIL, password: "bench" }).toString(),
    }),
    "the IdP's login form",
  )
  for (let hop = 0; next.origin === issuer; hop++) {
    if (hop === 5) throw new Error("the IdP never sent the user back to the app")
    next = await expectRedirect(await send(idp, next), `the IdP at ${next.pathname}`)
  }
  if (next.origin !== origin || next.pathname !== "/callback" || !next.searchParams.has("code")) {
    throw new Error(`the IdP sent the user to ${next.href}, not to the app's callback with a code`)
  }
  const done = await send(app, next)
  if (done.status !== 302) throw new Error(`GET /callback answered ${done.status}: ${(await done.text()).slice(0, 300)}`)
  const session = app.cookies.get("appSession")
  if (!session) throw new Error("GET /callback set no appSession cookie")
  return { cookie: `appSession=${session}` }
}

export default [
  {
    id: "eoc-session",
    name: "express-openid-connect (appSession cookie)",
    library: "express-openid-connect",
    job: "cookie-read",
    server: server("eoc.js"),
    services: async () => {
      const idp = await startServer(server("oidc-idp.js"), CLIENT)
      return { env: { BENCH_ISSUER: idp.origin, ...CLIENT }, close: idp.stop }
    },
    prepare: signIn,
    requests: ({ cookie }) => [{ method: "GET", path: "/protected", headers: { cookie } }],
    verify: ({ origin, prepared }) => verifyProtected(origin, { cookie: prepared.cookie }, EMAIL),
  },
]
