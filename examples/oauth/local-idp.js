// A local OpenID provider for the oauth example: oidc-provider (npm install oidc-provider) on
// 127.0.0.1, one confidential client for the example app, one demo account (demo / demo), its own
// small login page, and consent granted for that first-party client. For development only.
import { generateKeyPairSync, randomBytes, timingSafeEqual } from "node:crypto"
import express from "express"
import Provider from "oidc-provider"

export const DEMO_ACCOUNT = {
  sub: "demo",
  name: "Demo User",
  email: "demo@example.com",
  email_verified: true,
  picture: "https://www.gravatar.com/avatar/?d=identicon",
}
const DEMO_PASSWORD = "demo"

const escape = (value) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

function loginPage(uid, clientName, error) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local IdP: sign in</title></head><body>
<h1>Local IdP</h1><p>${escape(clientName)} asks you to sign in. The demo account is <b>demo</b> / <b>demo</b>.</p>
${error ? `<p role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Username <input name="login" autocomplete="username" value="demo"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form>
<p><a href="/interaction/${escape(uid)}/abort">Cancel</a></p>
</body></html>`
}

/** The IdP's "sign out?" page: oidc-provider's form (`op.logoutForm`, with its xsrf field) and two buttons. */
function logoutPage(form) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local IdP: sign out</title></head><body>
<h1>Local IdP</h1><p>Sign out of the Local IdP too?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>
</body></html>`
}

function samePassword(given) {
  const a = Buffer.from(String(given ?? ""))
  const b = Buffer.from(DEMO_PASSWORD)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Starts the IdP on 127.0.0.1:`port` (0: any free port) for a client with `clientId`,
 * `clientSecret` and `redirectUris`. Returns `{ issuer, close }`.
 */
export async function startLocalIdp({ port = 0, clientId, clientSecret, redirectUris, postLogoutRedirectUris = [] }) {
  const web = express()
  const server = await new Promise((listening, failed) => {
    const started = web.listen(port, "127.0.0.1", () => listening(started)).once("error", failed)
  })
  const issuer = `http://127.0.0.1:${server.address().port}`
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: "Gatehouse OAuth example",
        redirect_uris: redirectUris,
        // Where the IdP may send the browser back after signing out there (federatedSignOut).
        post_logout_redirect_uris: postLogoutRedirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), alg: "RS256", use: "sig", kid: "local-idp" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    findAccount: (_ctx, sub) => (sub === DEMO_ACCOUNT.sub ? { accountId: sub, claims: () => ({ ...DEMO_ACCOUNT }) } : undefined),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    pkce: { required: () => true }, // Gatehouse sends S256 PKCE by default
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      // Sign-out started by the app (RP-Initiated Logout): its own small confirmation page.
      rpInitiatedLogout: { enabled: true, logoutSource: (ctx, form) => void (ctx.body = logoutPage(form)) },
    },
  })

  web.get("/interaction/:uid", async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res)
      if (details.prompt.name === "login") {
        res.set("Cache-Control", "no-store").type("html").send(loginPage(details.uid, "Gatehouse OAuth example"))
        return
      }
      // Consent for the example's own client: granted for the scopes it asked.
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id })
      if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(" "))
      if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims)
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
    } catch (error) {
      next(error)
    }
  })

  web.post("/interaction/:uid/login", express.urlencoded({ extended: false, limit: "4kb" }), async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res)
      if (req.body.login !== DEMO_ACCOUNT.sub || !samePassword(req.body.password)) {
        res.status(401).type("html").send(loginPage(details.uid, "Gatehouse OAuth example", "Wrong username or password."))
        return
      }
      await provider.interactionFinished(req, res, { login: { accountId: DEMO_ACCOUNT.sub } }, { mergeWithLastSubmission: false })
    } catch (error) {
      next(error)
    }
  })

  web.get("/interaction/:uid/abort", async (req, res, next) => {
    try {
      await provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user cancelled the sign-in" }, { mergeWithLastSubmission: false })
    } catch (error) {
      next(error)
    }
  })

  web.use(provider.callback())

  return {
    issuer,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}
