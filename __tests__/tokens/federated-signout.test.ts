/**
 * Issue #17, sign-out that reaches the provider: `federatedSignOut` sends the browser to the real
 * oidc-provider's end_session_endpoint (id_token_hint, client_id, post_logout_redirect_uri) and
 * back; the provider's session is over (the next sign-in asks for the login again).
 * `revokeTokensOnSignOut` revokes the refresh token then the access token (RFC 7009); a failing
 * revocation endpoint is logged and the sign-out still completes.
 */
import { jest } from "@jest/globals"
import { decodeJwt } from "jose"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { customFetch } from "../../lib/core/symbols.js"
import { decode } from "../../lib/jwt/index.js"
import { csrfToken, SECRET } from "../helpers/app.js"
import { authorizationUrl, client, CLIENT_ID, CLIENT_SECRET, cookieJar, local, oauthSuite, oidc, startSignIn, startSite, type Site } from "../oauth/support.js"
import { idpBrowser, idpConfiguration } from "./support.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import type { AuthConfig } from "../../lib/types.js"

oauthSuite()
jest.setTimeout(30_000)

async function site(provider: Partial<OAuthProviderConfig>, config: Partial<AuthConfig> = {}): Promise<Site> {
  return startSite({
    configuration: idpConfiguration(),
    clients: (url) => [client(url, { post_logout_redirect_uris: [`${url}/`, `${url}/goodbye`] })],
    providers: (idp) => [oidc(idp, { authorization: { params: { scope: "openid email profile offline_access" } }, ...provider })],
    config: () => config,
  })
}

/** A browser: the app agent plus its cookies at the IdP. Returns the interactions the IdP asked for. */
async function signIn(made: Site, agent = made.agent(), browser = idpBrowser(made.idp.issuer)) {
  const prompts: string[] = []
  const listener = (_ctx: unknown, prompt: { name: string }) => prompts.push(prompt.name)
  made.idp.provider.on("interaction.started", listener)
  const back = await browser.follow(authorizationUrl(await startSignIn(agent)).href)
  made.idp.provider.off("interaction.started", listener)
  expect(back).toBeInstanceOf(URL)
  const callback = await agent.get(local(back as URL))
  expect(callback.status).toBe(302)
  return { agent, browser, prompts, callback }
}

async function signOut(agent: ReturnType<Site["agent"]>, callbackUrl = "/goodbye") {
  return agent.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(agent), callbackUrl })
}

test("federatedSignOut: the browser goes to end_session with id_token_hint, client_id and post_logout_redirect_uri, comes back, and the provider asks for the login again", async () => {
  const made = await site({ federatedSignOut: true })
  const first = await signIn(made)
  expect(first.prompts).toContain("login")
  // Still signed in at the provider: a second sign-in asks for no login.
  expect((await signIn(made, first.agent, first.browser)).prompts).not.toContain("login")
  const value = cookieJar(first.callback).get("authjs.session-token") as string
  const idToken = ((await decode({ token: value, secret: SECRET, salt: "authjs.session-token" }))?.providerTokens as Record<string, { id_token: string }>).idp.id_token
  const signedInAs = decodeJwt(idToken)

  const out = await signOut(first.agent)
  expect(out.status).toBe(302)
  const endSession = new URL(String(out.headers.location))
  expect(endSession.origin + endSession.pathname).toBe(`${made.idp.issuer}/session/end`)
  expect(endSession.searchParams.get("client_id")).toBe(CLIENT_ID)
  // The site's root (a fixed URL the provider has registered), whatever the sign-out's callbackUrl.
  expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${made.url}/`)
  // The hint is an ID token the provider issued to this client for this user and provider session.
  const hint = decodeJwt(endSession.searchParams.get("id_token_hint") as string)
  expect({ iss: hint.iss, aud: hint.aud, sub: hint.sub, sid: hint.sid }).toEqual({ iss: made.idp.issuer, aud: CLIENT_ID, sub: signedInAs.sub, sid: signedInAs.sid })
  // Signed out of the app already.
  expect((await first.agent.get("/auth/session")).body).toBeNull()

  const page = await first.browser.follow(endSession.href)
  const back = await first.browser.confirmLogout(page as Response)
  expect(back).toBeInstanceOf(URL)
  expect((back as URL).href).toBe(`${made.url}/`)
  expect((await signIn(made, first.agent, first.browser)).prompts).toContain("login")
})

test("federatedSignOut.postLogoutRedirectUri names the URL the provider sends the browser back to", async () => {
  const made = await site({ federatedSignOut: { postLogoutRedirectUri: "http://127.0.0.1:1/goodbye" } })
  const { agent } = await signIn(made)
  const out = await signOut(agent)
  expect(new URL(String(out.headers.location)).searchParams.get("post_logout_redirect_uri")).toBe("http://127.0.0.1:1/goodbye")
})

test("without federatedSignOut, sign-out stays on the app (the provider session lives on)", async () => {
  const made = await site({})
  const first = await signIn(made)
  const out = await signOut(first.agent)
  expect(String(out.headers.location)).toBe(`${made.url}/goodbye`)
  expect((await signIn(made, first.agent, first.browser)).prompts).not.toContain("login")
})

test("revokeTokensOnSignOut: the refresh token and then the access token are revoked; the refresh token no longer works", async () => {
  const adapter = MemoryAdapter()
  const made = await site({ revokeTokensOnSignOut: true }, { adapter })
  const { agent } = await signIn(made)
  const [account] = [...adapter.store.accounts.values()]
  expect(account?.refresh_token).toBeTruthy()
  const before = made.idp.hits["/token/revocation"] ?? 0
  const out = await signOut(agent)
  expect(String(out.headers.location)).toBe(`${made.url}/goodbye`)
  expect((made.idp.hits["/token/revocation"] ?? 0) - before).toBe(2)
  const refresh = await fetch(`${made.idp.issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}` },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: account?.refresh_token as string }),
  })
  expect(refresh.status).toBe(400)
  expect((await refresh.json()).error).toBe("invalid_grant")
  const stored = [...adapter.store.accounts.values()][0]
  expect(stored?.refresh_token ?? null).toBeNull()
})

test("a failing revocation endpoint is logged and the sign-out completes", async () => {
  const failing: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.endsWith("/token/revocation")) throw new TypeError("fetch failed: connection refused")
    return fetch(input, init)
  }
  const made = await site({ revokeTokensOnSignOut: true, federatedSignOut: true, [customFetch]: failing })
  const { agent } = await signIn(made)
  const out = await signOut(agent)
  expect(out.status).toBe(302)
  expect(String(out.headers.location)).toContain(`${made.idp.issuer}/session/end`)
  expect((await agent.get("/auth/session")).body).toBeNull()
  expect(made.errors.mock.calls.map(([error]) => error.message).join("\n")).toMatch(/Revoking the refresh_token of "idp" at sign-out failed/)
})
