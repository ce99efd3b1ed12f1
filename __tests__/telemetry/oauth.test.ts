/**
 * An OAuth/OIDC sign-in against the real oidc-provider, traced: the sign-in and callback action
 * spans, the provider calls below them (discovery, token, JWKS, userinfo) with their durations, and
 * none of the flow's secrets (the code, state, client secret, tokens, cookies, the address).
 */
import { jest } from "@jest/globals"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { CLIENT_SECRET, client, cookieHeader, cookieJar, local, oauth2, oidc, oauthSuite, signInFlow, startSignIn, atIdp, startSite } from "../oauth/support.js"
import { request } from "../helpers/app.js"
import { ACCESS_TOKEN_TTL, idpConfiguration, sleep, tokenRoute } from "../tokens/support.js"
import { IDP_ACCOUNTS } from "../helpers/idp.js"
import { allPoints, childrenOf, expectNoSecrets, exported, idOf, parentOf, startTelemetry, type Telemetry } from "./support.js"

oauthSuite()
jest.setTimeout(30_000)

let telemetry: Telemetry
beforeEach(() => {
  telemetry = startTelemetry()
})
afterEach(() => telemetry.close())

describe("an OpenID Connect sign-in", () => {
  it("traces signin and callback with the provider calls as their children, times them, and counts the sign-in", async () => {
    const site = await startSite({ config: () => ({ telemetry: telemetry.option }) })
    const agent = site.agent()
    const start = await startSignIn(agent)
    expect(start.status).toBe(302)
    const back = await atIdp(site, start)
    const callback = await agent.get(local(back))
    expect(callback.status).toBe(302)
    expect(new URL(String(callback.headers.location), site.url).pathname).not.toContain("error")

    const spans = telemetry.spans()
    const signin = spans.find((span) => span.name === "gatehouse.signin" && span.attributes["http.request.method"] === "POST")!
    expect(signin.attributes).toMatchObject({ "gatehouse.provider.id": "idp", "gatehouse.provider.type": "oidc", "gatehouse.outcome": "success", "http.response.status_code": 302 })
    const discovery = telemetry.one("gatehouse.provider.discovery")
    expect(parentOf(discovery)).toBe(idOf(signin))
    expect(discovery.kind).toBe(SpanKind.CLIENT)
    expect(discovery.attributes).toMatchObject({
      "gatehouse.provider.id": "idp",
      "gatehouse.provider.operation": "discovery",
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "http.response.status_code": 200,
    })

    const callbackSpan = telemetry.one("gatehouse.callback")
    expect(callbackSpan.attributes).toMatchObject({ "gatehouse.provider.id": "idp", "gatehouse.outcome": "success" })
    const below = childrenOf(spans, callbackSpan).map((span) => span.name)
    expect(below).toEqual(expect.arrayContaining(["gatehouse.provider.token", "gatehouse.provider.jwks", "gatehouse.provider.userinfo"]))
    const token = telemetry.one("gatehouse.provider.token")
    expect(token.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200 })
    expect(token.status.code).not.toBe(SpanStatusCode.ERROR)
    // Both actions belong to their own requests' traces; the provider calls share their action's.
    expect(token.spanContext().traceId).toBe(callbackSpan.spanContext().traceId)

    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.provider.id": "idp", "gatehouse.provider.type": "oidc", "gatehouse.outcome": "success" })).toBe(1)
    const durations = await telemetry.points("gatehouse.provider.request.duration")
    const operations = durations.map((point) => point.attributes["gatehouse.provider.operation"])
    expect(operations).toEqual(expect.arrayContaining(["discovery", "token", "jwks", "userinfo"]))
    for (const point of durations) {
      expect(point.attributes["gatehouse.provider.id"]).toBe("idp")
      expect(typeof point.value === "object" && point.value.count).toBeGreaterThanOrEqual(1)
    }

    const jar = cookieJar(start, callback)
    const code = back.searchParams.get("code") ?? undefined
    expectNoSecrets(exported(spans, await allPoints(telemetry)), {
      "authorization code": code,
      "client secret": CLIENT_SECRET,
      "session cookie": jar.get("authjs.session-token"),
      "PKCE cookie": cookieJar(start).get("authjs.pkce.code_verifier"),
      "email address": IDP_ACCOUNTS.alice!.email,
    })
  })

  it("a refused code at the token endpoint: the token span fails with its status, the callback with its error type", async () => {
    const site = await startSite({ providers: (idp) => [oauth2(idp)], config: () => ({ telemetry: telemetry.option }) })
    const agent = site.agent()
    const start = await startSignIn(agent)
    const back = await atIdp(site, start)
    back.searchParams.set("code", "a-code-the-idp-never-issued")
    const callback = await agent.get(local(back))
    expect(String(callback.headers.location)).toContain("error=")

    const token = telemetry.one("gatehouse.provider.token")
    expect(token.attributes["http.response.status_code"]).toBe(400)
    expect(token.attributes["error.type"]).toBe("400")
    expect(token.status.code).toBe(SpanStatusCode.ERROR)
    const callbackSpan = telemetry.one("gatehouse.callback")
    expect(parentOf(token)).toBe(idOf(callbackSpan))
    expect(callbackSpan.attributes).toMatchObject({ "gatehouse.outcome": "failure", "gatehouse.provider.id": "idp" })
    expect(callbackSpan.attributes["error.type"]).toEqual(expect.any(String))
    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.outcome": "failure" })).toBe(1)
    expect(await telemetry.count("gatehouse.provider.request.duration", { "gatehouse.provider.operation": "token", "error.type": "400" })).toBe(1)
    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { "client secret": CLIENT_SECRET, "made-up code": "a-code-the-idp-never-issued" })
  })
})

describe("a refresh of the provider's access token (getAccessToken)", () => {
  it("is counted by provider and outcome, its token call traced and timed, and no token is recorded", async () => {
    const site = await startSite({
      clients: (url) => [client(url)],
      configuration: idpConfiguration(),
      providers: (idp) => [oidc(idp, { authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } } })],
      config: () => ({ telemetry: telemetry.option }),
    })
    tokenRoute(site.app, site.config)
    const agent = site.agent()
    const { callback } = await signInFlow(site, agent)
    const cookie = cookieHeader(cookieJar(callback))
    await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
    telemetry.reset()
    const answer = await request(site.url).get("/token?skew=0").set("Cookie", cookie)
    expect(answer.status).toBe(200)
    const token = answer.body.token as string

    expect(await telemetry.count("gatehouse.token.refreshes", { "gatehouse.provider.id": "idp", "gatehouse.outcome": "success" })).toBe(1)
    expect(telemetry.one("gatehouse.provider.token").attributes).toMatchObject({ "gatehouse.provider.id": "idp", "http.response.status_code": 200 })
    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { "access token": token, "client secret": CLIENT_SECRET })
  })
})
