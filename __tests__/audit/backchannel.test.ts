/**
 * Issue #20: a provider's back-channel logout (issue #17) in the audit trail: the real
 * oidc-provider's user signs out there, a logout token naming the provider session arrives, and
 * the app session it ended is a `session.revoked` record with scope backchannel; the logout token
 * and the ID token are in no record.
 */
import { randomUUID } from "node:crypto"
import { expect, jest, test } from "@jest/globals"
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose"
import { decode } from "../../lib/jwt/index.js"
import { SECRET, request } from "../helpers/app.js"
import { authorizationUrl, client, cookieHeader, cookieJar, CLIENT_ID, local, oauthSuite, startSignIn, startSite } from "../oauth/support.js"
import { idpBrowser, idpConfiguration } from "../tokens/support.js"
import { auditLog, expectNoSecrets } from "./support.js"

oauthSuite()
jest.setTimeout(30_000)

test("a logout token for the provider session ends the app session: session.revoked, scope backchannel, with the user and provider", async () => {
  const pair = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(pair.privateKey)), alg: "RS256", use: "sig", kid: "bcl-key" }
  const log = auditLog()
  const site = await startSite({
    configuration: idpConfiguration({ jwks: { keys: [jwk as never] } }),
    clients: (url) => [client(url, { backchannel_logout_uri: `${url}/auth/backchannel-logout/idp`, backchannel_logout_session_required: true })],
    config: () => ({ events: { audit: log.audit } }),
  })
  const agent = site.agent()
  const browser = idpBrowser(site.idp.issuer)
  site.idp.nextLogin = "alice"
  const back = await browser.follow(authorizationUrl(await startSignIn(agent)).href)
  const callback = await agent.get(local(back as URL))
  expect(callback.status).toBe(302)
  const cookie = cookieHeader(cookieJar(callback))
  const sealed = /authjs\.session-token=([^;]+)/.exec(cookie)![1]!
  const token = await decode({ token: sealed, secret: SECRET, salt: "authjs.session-token" })
  const idToken = (token?.providerTokens as Record<string, { id_token: string }>).idp.id_token
  const { sid } = decodeJwt(idToken)

  const now = Math.floor(Date.now() / 1000)
  const logoutToken = await new SignJWT({ events: { "http://schemas.openid.net/event/backchannel-logout": {} }, jti: randomUUID(), sid })
    .setProtectedHeader({ alg: "RS256", kid: "bcl-key", typ: "logout+jwt" })
    .setIssuer(site.idp.issuer)
    .setAudience(CLIENT_ID)
    .setIssuedAt(now)
    .setExpirationTime(now + 120)
    .sign(pair.privateKey)
  const answered = await request(site.url).post("/auth/backchannel-logout/idp").type("form").send({ logout_token: logoutToken })
  expect(answered.status).toBe(200)
  expect((await request(site.url).get("/auth/session").set("Cookie", cookie)).body).toBeNull()
  expect(log.of("session.revoked")).toEqual([
    expect.objectContaining({ outcome: "success", scope: "backchannel", provider: "idp", userId: token!.sub, sessionId: token!.sid, requestId: answered.headers["x-request-id"] }),
  ])
  expectNoSecrets(log.records, [logoutToken, idToken, sealed, String(sid)])
})
