// A real OpenID provider (oidc-provider v9) for the express-openid-connect scenario, on 127.0.0.1.
// Not measured: it only serves the sign-in in `prepare` (and discovery and the token exchange the
// relying party makes during it).
//
// - One confidential client, BENCH_CLIENT_ID / BENCH_CLIENT_SECRET (from the scenario). Its
//   redirect URI is http://127.0.0.1/callback with application_type "native", for which
//   oidc-provider accepts any port on a loopback address (RFC 8252 §7.3): the relying party
//   starts after the IdP, on a port the system picks.
// - One user, bench@example.com / bench, with an `email` claim that goes into the ID token
//   (conformIdTokenClaims: false), so the relying party needs no userinfo call.
// - A minimal login: GET /interaction/:uid shows a form, POST /interaction/:uid/login checks the
//   credentials; the consent step that follows (oidc-provider always asks it for a native client)
//   is granted at once, without a page.
import { generateKeyPairSync } from "node:crypto"
import express from "express"
import Provider from "oidc-provider"
import { serve } from "../lib/serve.js"
import { withOrigin } from "../lib/with-origin.js"

const { BENCH_CLIENT_ID, BENCH_CLIENT_SECRET } = process.env
if (!BENCH_CLIENT_ID || !BENCH_CLIENT_SECRET) throw new Error("BENCH_CLIENT_ID and BENCH_CLIENT_SECRET are not set (bench/scenarios/eoc.js sets them)")

const CLIENT = {
  client_id: BENCH_CLIENT_ID,
  client_secret: BENCH_CLIENT_SECRET,
  application_type: "native",
  redirect_uris: ["http://127.0.0.1/callback"],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "client_secret_basic",
}

const ACCOUNTS = new Map([["bench", { email: "bench@example.com", email_verified: true, password: "bench" }]])

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

async function build(issuer) {
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })
  const provider = new Provider(issuer, {
    clients: [CLIENT],
    jwks: { keys: [{ ...key, alg: "RS256", use: "sig", kid: "bench" }] },
    cookies: { keys: ["gatehouse-bench-idp-cookie-key"] },
    findAccount: async (_ctx, sub) => {
      const account = ACCOUNTS.get(sub)
      if (!account) return undefined
      return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.email_verified }) }
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, IdToken: 3600 },
  })

  const app = express()
  app.get("/interaction/:uid", async (req, res, next) => {
    try {
      const { uid, prompt, params, session, grantId } = await provider.interactionDetails(req, res)
      if (prompt.name === "consent") {
        // Consent is implied for the one first-party client: granted without a page. (oidc-provider
        // asks for it on every sign-in of a native client, see above.)
        const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
        grant.addOIDCScope(String(params.scope))
        await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
        return
      }
      res.type("html").send(
        `<!doctype html><form method="post" action="/interaction/${escape(uid)}/login">` +
          `<input name="email" autocomplete="username"><input name="password" type="password"><button>Sign in</button></form>`,
      )
    } catch (error) {
      next(error)
    }
  })
  app.post("/interaction/:uid/login", express.urlencoded({ extended: false }), async (req, res, next) => {
    try {
      await provider.interactionDetails(req, res)
      const entry = [...ACCOUNTS].find(([, account]) => account.email === req.body.email && account.password === req.body.password)
      const result = entry ? { login: { accountId: entry[0] } } : { error: "access_denied", error_description: "wrong email or password" }
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
    } catch (error) {
      next(error)
    }
  })
  app.use(provider.callback())
  return app
}

serve(withOrigin(build))
