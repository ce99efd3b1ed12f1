/**
 * Issue #31: `GET token` makes the signed-in session into a signed JWT (cookie and database
 * sessions), `GET jwks` publishes the keys, and `verifyServiceToken` accepts the token (with the
 * keys, with the JWKS URL of a real server) and refuses every bad one as `ServiceTokenInvalid`.
 */
import { SignJWT, generateKeyPair, exportJWK, decodeProtectedHeader, type JWK } from "jose"
import request from "supertest"
import { ServiceTokenInvalid, verifyServiceToken } from "../../lib/service-tokens/index.js"
import { verifyServiceToken as fromGatehouse } from "../../lib/index.js"
import type { AuditRecord } from "../../lib/types.js"
import { freshName, listen, signedIn, tokenApp, tokenConfig } from "./support.js"

const API = "https://api.example.test"

async function refusedAs(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(ServiceTokenInvalid)
  return ((error as ServiceTokenInvalid).cause?.code as string | undefined) ?? ""
}

describe.each(["jwt", "database"] as const)("GET /auth/token (%s sessions)", (strategy) => {
  const records: AuditRecord[] = []
  const app = tokenApp(tokenConfig({ session: { strategy }, serviceTokens: { audiences: [API, "https://billing.example.test"], maxAge: 120 }, events: { audit: (record) => void records.push(record) } }))

  test("a signed-in session gets a short-lived token with its claims; never cached; audited without the token", async () => {
    const { agent, userId } = await signedIn(app)
    const res = await agent.get(`/auth/token?audience=${encodeURIComponent(API)}`).expect(200)
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.body).toEqual({ token: expect.any(String), tokenType: "Bearer", expiresIn: 120, expires: expect.any(String) })
    const jwks = (await request(app).get("/auth/jwks").expect(200)).body as { keys: JWK[] }
    const payload = await verifyServiceToken(res.body.token, { keys: jwks, audience: API })
    expect(payload).toEqual({ iss: expect.stringMatching(/\/auth$/), sub: userId, aud: API, iat: expect.any(Number), exp: payload.iat + 120, jti: expect.any(String), via: "session" })
    expect(new Date(res.body.expires).getTime()).toBe(payload.exp * 1000)
    const header = decodeProtectedHeader(res.body.token)
    expect(header).toMatchObject({ alg: "ES256", typ: "JWT" })
    expect(jwks.keys.map((key) => key.kid)).toContain(header.kid)
    const issued = records.filter((record) => record.type === "service_token.issued" && record.userId === userId)
    expect(issued).toEqual([expect.objectContaining({ outcome: "success", via: "session", audience: API, scopes: [], tokenId: payload.jti })])
    expect(JSON.stringify(records)).not.toContain(res.body.token)
  })

  test("signed out: 401 SessionRequired; an audience not configured, or none when there are several: 400; a scope not held: 403", async () => {
    const signedOut = await request(app).get(`/auth/token?audience=${encodeURIComponent(API)}`).expect(401)
    expect(signedOut.body.error.type).toBe("SessionRequired")
    const { agent } = await signedIn(app)
    expect((await agent.get("/auth/token?audience=https%3A%2F%2Fevil.example.test").expect(400)).body.error.type).toBe("InvalidRequest")
    expect((await agent.get("/auth/token").expect(400)).body.error.type).toBe("InvalidRequest")
    expect((await agent.get(`/auth/token?audience=${encodeURIComponent(API)}&audience=${encodeURIComponent(API)}`).expect(400)).body.error.type).toBe("InvalidRequest")
    const denied = await agent.get(`/auth/token?audience=${encodeURIComponent(API)}&scope=project%3Aread`).expect(403)
    expect(denied.body.error.type).toBe("ServiceTokenScopeDenied")
    expect(denied.headers["cache-control"]).toBe("no-store")
    expect(records).toEqual(expect.arrayContaining([expect.objectContaining({ type: "service_token.refused", outcome: "failure", reason: "ServiceTokenScopeDenied" })]))
  })

  test("a HEAD is not answered (it would issue a token)", async () => {
    const { agent } = await signedIn(app)
    expect((await agent.head(`/auth/token?audience=${encodeURIComponent(API)}`)).status).toBe(405)
  })
})

describe("scopes and organizations", () => {
  const app = tokenApp(tokenConfig({ organizations: true, serviceTokens: { audiences: [API] } }))

  test("a session holds its active organization's permissions: the token carries those asked for, and org", async () => {
    const { agent, userId } = await signedIn(app)
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    await agent.post("/auth/organizations/create").set("Accept", "application/json").type("form").send({ csrfToken: csrf, name: "Acme" }).expect(200)
    const session = (await agent.get("/auth/session").expect(200)).body as { organization: { id: string; permissions: string[] } }
    const held = session.organization.permissions.slice(0, 2)
    expect(held.length).toBe(2)
    const res = await agent.get(`/auth/token?scope=${encodeURIComponent(held.join(" "))}`).expect(200)
    const payload = await verifyServiceToken(res.body.token, { keys: (await request(app).get("/auth/jwks")).body, audience: API })
    expect(payload).toMatchObject({ sub: userId, scope: held.join(" "), org: session.organization.id, via: "session" })
    expect((await agent.get("/auth/token?scope=no-such%3Apermission").expect(403)).body.error.type).toBe("ServiceTokenScopeDenied")
  })
})

describe("GET /auth/jwks and verifyServiceToken", () => {
  const app = tokenApp(tokenConfig({ serviceTokens: { algorithm: "EdDSA" } }))
  let server: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    server = await listen(app)
  })
  afterAll(() => server.close())

  test("the JWKS is public and cacheable, public keys only; HEAD too", async () => {
    const res = await request(app).get("/auth/jwks").expect(200)
    expect(res.headers["cache-control"]).toBe("public, max-age=300")
    expect(res.body.keys.length).toBeGreaterThanOrEqual(1)
    for (const key of res.body.keys as JWK[]) {
      expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", kid: expect.any(String), x: expect.any(String) })
      expect(key.d).toBeUndefined()
    }
    await request(app).head("/auth/jwks").expect(200)
  })

  test("accepted with the JWKS URL of the running app (gatehouse and gatehouse/service-tokens alike); refused: another audience, another issuer, expired, another key, alg none, garbage", async () => {
    const userId = `u-${freshName("st")}`
    const audience = server.origin
    // Signed in on the real server: the issuer and default audience are its origin.
    const live = request.agent(server.origin)
    const csrf = (await live.get("/auth/csrf")).body.csrfToken as string
    await live.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username: userId.slice(2), password: "pw" }).expect(302)
    const { token } = (await live.get("/auth/token").expect(200)).body as { token: string }
    const jwksUrl = `${server.origin}/auth/jwks`
    const payload = await verifyServiceToken(token, { jwksUrl, audience, issuer: `${server.origin}/auth` })
    expect(payload).toMatchObject({ sub: userId, aud: audience, via: "session" })
    expect((await fromGatehouse(token, { jwksUrl: new URL(jwksUrl), audience })).jti).toBe(payload.jti)

    expect(await refusedAs(verifyServiceToken(token, { jwksUrl, audience: API }))).toBe("ERR_JWT_CLAIM_VALIDATION_FAILED")
    expect(await refusedAs(verifyServiceToken(token, { jwksUrl, audience, issuer: "https://other.example.test/auth" }))).toBe("ERR_JWT_CLAIM_VALIDATION_FAILED")
    // jose's clock, not a wait: the token checked as of its expiry plus the tolerance.
    expect(await refusedAs(verifyServiceToken(token, { jwksUrl, audience, currentDate: new Date((payload.exp + 16) * 1000) }))).toBe("ERR_JWT_EXPIRED")

    const stranger = await generateKeyPair("EdDSA")
    const forged = await new SignJWT({ ...payload }).setProtectedHeader({ alg: "EdDSA", kid: decodeProtectedHeader(token).kid }).sign(stranger.privateKey)
    expect(await refusedAs(verifyServiceToken(forged, { jwksUrl, audience }))).toBe("ERR_JWS_SIGNATURE_VERIFICATION_FAILED")
    const unknownKid = await new SignJWT({ ...payload }).setProtectedHeader({ alg: "EdDSA", kid: "someone-else" }).sign(stranger.privateKey)
    expect(await refusedAs(verifyServiceToken(unknownKid, { jwksUrl, audience }))).toBe("ERR_JWKS_NO_MATCHING_KEY")
    const [, body] = token.split(".")
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${body}.`
    expect(await refusedAs(verifyServiceToken(none, { jwksUrl, audience }))).toBe("ERR_JOSE_ALG_NOT_ALLOWED")
    expect(await refusedAs(verifyServiceToken("garbage", { jwksUrl, audience }))).toBe("ERR_JWS_INVALID")
    expect(await refusedAs(verifyServiceToken("", { jwksUrl, audience }))).toBe("")
    // An HMAC token made with the public key as the secret (the classic confusion): refused by algorithm.
    const publicKey = ((await request(app).get("/auth/jwks")).body as { keys: JWK[] }).keys[0] as JWK
    const hmac = await new SignJWT({ ...payload }).setProtectedHeader({ alg: "HS256" }).sign(Buffer.from(JSON.stringify(publicKey)))
    expect(await refusedAs(verifyServiceToken(hmac, { jwksUrl, audience }))).toBe("ERR_JOSE_ALG_NOT_ALLOWED")

    // The keys themselves, for a service given them rather than the URL.
    const keys = ((await request(app).get("/auth/jwks")).body as { keys: JWK[] }).keys
    expect((await verifyServiceToken(token, { keys, audience })).jti).toBe(payload.jti)
    expect(await refusedAs(verifyServiceToken(token, { keys: [{ ...(await exportJWK(stranger.publicKey)), kid: decodeProtectedHeader(token).kid }], audience }))).toBe("ERR_JWS_SIGNATURE_VERIFICATION_FAILED")
  })
})

test("with the option off both paths answer ServiceTokensUnavailable (404)", async () => {
  const app = tokenApp(tokenConfig({ serviceTokens: undefined }))
  expect((await request(app).get("/auth/jwks").set("Accept", "application/json").expect(404)).body.error.type).toBe("ServiceTokensUnavailable")
  expect((await request(app).get("/auth/token").set("Accept", "application/json").expect(404)).body.error.type).toBe("ServiceTokensUnavailable")
})
