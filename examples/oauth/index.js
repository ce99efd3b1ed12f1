// The OAuth example: sign in with GitHub and Google (when their credentials are set) or with a
// local OpenID provider started next to the app, so a full OpenID Connect sign-in works offline.
//   node examples/oauth/index.js                    local IdP on http://127.0.0.1:3001 (demo / demo)
//   AUTH_GITHUB_ID=… AUTH_GITHUB_SECRET=… AUTH_GOOGLE_ID=… AUTH_GOOGLE_SECRET=… node examples/oauth/index.js
//   LOCAL_IDP=1 adds the local IdP to GitHub/Google; LOCAL_IDP_PORT moves it; PORT moves the app.
// Then open http://localhost:3000. Register http://localhost:3000/auth/callback/github (and
// /auth/callback/google) as the redirect URL of your GitHub and Google apps.
// Importing this module in local-IdP mode starts the IdP (exported as `localIdp`, with close()).
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import GitHub from "gatehouse/providers/github"
import Google from "gatehouse/providers/google"
import OIDC from "gatehouse/providers/oidc"
import { startLocalIdp } from "./local-idp.js"

const port = Number(process.env.PORT ?? 3000)
const hasGitHub = Boolean(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET)
const hasGoogle = Boolean(process.env.AUTH_GOOGLE_ID && process.env.AUTH_GOOGLE_SECRET)
const useLocalIdp = process.env.LOCAL_IDP === "1" || (!hasGitHub && !hasGoogle)

/** The origins the app is reached at: AUTH_URL's, else localhost and 127.0.0.1 on PORT. */
function siteOrigins() {
  if (process.env.AUTH_URL) return [new URL(process.env.AUTH_URL).origin]
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`]
}

const providers = []
// GitHub() and Google() read AUTH_GITHUB_ID/SECRET and AUTH_GOOGLE_ID/SECRET themselves.
if (hasGitHub) providers.push(GitHub())
if (hasGoogle) providers.push(Google())

/** The local IdP (in local mode), started before the configuration is built. */
export let localIdp = null
if (useLocalIdp) {
  const clientId = "gatehouse-oauth-example"
  const clientSecret = randomBytes(24).toString("hex") // shared in this process only
  localIdp = await startLocalIdp({
    port: Number(process.env.LOCAL_IDP_PORT ?? 3001),
    clientId,
    clientSecret,
    redirectUris: siteOrigins().map((origin) => `${origin}/auth/callback/local`),
    postLogoutRedirectUris: siteOrigins().map((origin) => `${origin}/`),
  })
  // Any OpenID provider plugs in like this: the issuer (discovery), the client id and secret.
  // Checks: PKCE (the default) plus state and nonce.
  // FEDERATED_SIGNOUT=1: signing out of the app also signs out of the IdP (its end_session page,
  // then back to the app's home page).
  const federatedSignOut = process.env.FEDERATED_SIGNOUT === "1"
  providers.push(OIDC({ id: "local", name: "Local IdP (demo)", issuer: localIdp.issuer, clientId, clientSecret, checks: ["pkce", "state", "nonce"], federatedSignOut }))
}

export const authConfig = {
  providers,
  callbacks: {
    // At sign-in, remember which provider it was; the session shows it.
    jwt({ token, account }) {
      if (account) token.provider = account.provider
      return token
    },
    session({ session, token }) {
      return { ...session, provider: token.provider }
    },
  },
}

const escape = (value) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

app.get("/", (req, res) => {
  const session = req.auth
  const names = providers.map((provider) => provider.name)
  res.send(
    page(
      "Gatehouse OAuth example",
      session
        ? `<h1>Hello, ${escape(session.user.name)}</h1><p>Signed in with <b>${escape(session.provider)}</b> as ${escape(session.user.email)}.</p>
           <p><a href="/profile">Profile</a> · <a href="/auth/signout">Sign out</a></p>`
        : `<h1>Gatehouse OAuth example</h1><p>Sign in with: ${names.map(escape).join(", ")}.${localIdp ? " The local IdP's account is <b>demo</b> / <b>demo</b>." : ""}</p>
           <p><a href="/auth/signin">Sign in</a> · <a href="/profile">Profile (protected)</a></p>`,
    ),
  )
})

app.get("/profile", requireAuth(authConfig), (req, res) => {
  if (req.accepts(["html", "json"]) === "json") return res.json(req.auth)
  res.send(page("Profile", `<h1>Profile</h1><pre>${escape(JSON.stringify(req.auth, null, 2))}</pre><p><a href="/">Home</a></p>`))
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  app.listen(port, () => {
    console.log(`Gatehouse OAuth example on http://localhost:${port}`)
    if (localIdp) console.log(`Local OpenID provider at ${localIdp.issuer} (account demo / demo)`)
  })
}
