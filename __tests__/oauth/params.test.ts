/**
 * The authorization URL's parameters: from the provider's configuration, from the server-side
 * `signIn(…, authorizationParams)` helper and from the sign-in POST (never the flow's own
 * parameters, and from a browser never the scope), and `redirect_uri` through a redirect proxy.
 */
import express from "express"
import { signIn, signInAction } from "../../lib/index.js"
import { makeApp, request, reserve, testConfig } from "../helpers/app.js"
import {
  CHECK_COOKIES,
  CLIENT_ID,
  authorizationUrl,
  client,
  cookieValue,
  local,
  oauthSuite,
  oidc,
  openCheck,
  sessionOf,
  startSignIn,
  startSite,
} from "./support.js"

oauthSuite()

/** Parameters only the flow itself may set, with values an attacker would like. */
const HOSTILE = {
  client_id: "someone-else",
  redirect_uri: "https://evil.example/callback",
  response_type: "token",
  response_mode: "fragment",
  state: "attacker-state",
  nonce: "attacker-nonce",
  code_challenge: "attacker-challenge",
  code_challenge_method: "plain",
  request_uri: "urn:attacker",
}

function expectFlowParams(url: URL, callbackUrl: string) {
  const params = url.searchParams
  expect(params.get("client_id")).toBe(CLIENT_ID)
  expect(params.get("redirect_uri")).toBe(callbackUrl)
  expect(params.get("response_type")).toBe("code")
  expect(params.get("code_challenge_method")).toBe("S256")
  expect(params.get("code_challenge")).not.toBe(HOSTILE.code_challenge)
  expect(params.getAll("code_challenge")).toHaveLength(1)
  for (const name of ["state", "nonce", "response_mode", "request_uri"]) expect(params.has(name)).toBe(false)
}

describe("authorization parameters", () => {
  test("the provider's authorization.params reach the URL, except the flow's own", async () => {
    const site = await startSite({
      providers: (idp) => [oidc(idp, { authorization: { params: { prompt: "consent", ui_locales: "fr", scope: "openid email", ...HOSTILE } } })],
    })
    const url = authorizationUrl(await startSignIn(site.agent()))
    expect(url.searchParams.get("prompt")).toBe("consent")
    expect(url.searchParams.get("ui_locales")).toBe("fr")
    expect(url.searchParams.get("scope")).toBe("openid email")
    expectFlowParams(url, site.callbackUrl())
  })

  test("the sign-in POST's authorizationParams field and query add parameters, never the flow's own or the scope", async () => {
    const site = await startSite()
    const agent = site.agent()
    const fields = new URLSearchParams({ login_hint: "bob", prompt: "login", scope: "openid admin", client_secret: "leak", ...HOSTILE })
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    const start = await agent
      .post("/auth/signin/idp?ui_locales=de&scope=openid+admin&redirect_uri=https%3A%2F%2Fevil.example%2Fcb")
      .type("form")
      .send({ csrfToken: csrf, authorizationParams: fields.toString() })
    const url = authorizationUrl(start)
    expect(url.searchParams.get("login_hint")).toBe("bob")
    expect(url.searchParams.get("prompt")).toBe("login")
    expect(url.searchParams.get("ui_locales")).toBe("de")
    expect(url.searchParams.getAll("scope")).toEqual(["openid profile email"])
    expect(url.searchParams.has("client_secret")).toBe(false)
    expectFlowParams(url, site.callbackUrl())

    // The flow still completes with the parameters the browser was allowed to add.
    site.idp.nextLogin = "bob"
    const back = await site.idp.browse(url.href, site.callbackUrl())
    expect((await agent.get(local(back))).headers.location).toBe(`${site.url}/`)
    expect((await sessionOf(agent))?.user?.email).toBe("bob@example.com")
  })

  test("server-side signIn(…, authorizationParams) reaches the URL, scope included, and the flow completes", async () => {
    const site = await startSite()
    site.app.post("/go", async (req, res) => {
      const extra = { login_hint: "bob", scope: "openid email", ...HOSTILE }
      const url = await signIn(req, res, site.config, "idp", { redirect: false, redirectTo: "/dashboard" }, extra)
      res.json({ url })
    })
    const agent = site.agent()
    const answer = await agent.post("/go").expect(200)
    const url = new URL(answer.body.url as string)
    expect(url.origin + url.pathname).toBe(`${site.idp.issuer}/auth`)
    expect(url.searchParams.get("login_hint")).toBe("bob")
    expect(url.searchParams.get("scope")).toBe("openid email")
    expectFlowParams(url, site.callbackUrl())
    expect(cookieValue(answer, CHECK_COOKIES.pkce)).toBeDefined()

    site.idp.nextLogin = "bob"
    const back = await site.idp.browse(url.href, site.callbackUrl())
    const callback = await agent.get(local(back))
    expect(callback.headers.location).toBe(`${site.url}/dashboard`)
    // The IdP honoured the narrower scope: the profile has the email but not the name.
    expect((await sessionOf(agent))?.user).toEqual({ email: "bob@example.com", name: null, image: null })
  })
})

describe("form actions", () => {
  test("signInAction: authorizationParams posted by the browser add parameters, but not the scope or the flow's own", async () => {
    const site = await startSite()
    site.app.post("/login", express.urlencoded({ extended: false }), async (req, res) => {
      await signInAction(req, res, site.config)
    })
    const answer = await site
      .agent()
      .post("/login")
      .type("form")
      .send({ providerId: "idp", redirectTo: "/dashboard", authorizationParams: new URLSearchParams({ login_hint: "bob", scope: "openid admin", ...HOSTILE }).toString() })
      .expect(302)
    const url = new URL(answer.headers.location as string)
    expect(url.origin + url.pathname).toBe(`${site.idp.issuer}/auth`)
    expect(url.searchParams.get("login_hint")).toBe("bob")
    expect(url.searchParams.get("scope")).toBe("openid profile email")
    expectFlowParams(url, site.callbackUrl())
  })
})

describe("redirectProxyUrl", () => {
  test("the config's redirectProxyUrl sets redirect_uri and turns the state check on", async () => {
    const site = await startSite({ config: () => ({ redirectProxyUrl: "https://proxy.example/auth" }) })
    const start = await startSignIn(site.agent())
    const url = authorizationUrl(start)
    expect(url.searchParams.get("redirect_uri")).toBe("https://proxy.example/auth/callback/idp")
    const state = url.searchParams.get("state")
    expect(state).toBeTruthy()
    expect(openCheck(cookieValue(start, CHECK_COOKIES.state), CHECK_COOKIES.state)).toMatchObject({ value: state, provider: "idp" })
  })

  test("a provider's redirectProxyUrl wins over the config's", async () => {
    const site = await startSite({
      providers: (idp) => [oidc(idp, { redirectProxyUrl: "https://other-proxy.example/api/auth/" })],
      config: () => ({ redirectProxyUrl: "https://proxy.example/auth" }),
    })
    const url = authorizationUrl(await startSignIn(site.agent()))
    expect(url.searchParams.get("redirect_uri")).toBe("https://other-proxy.example/api/auth/callback/idp")
    expect(url.searchParams.get("state")).toBeTruthy()
  })

  test("AUTH_REDIRECT_PROXY_URL is the default", async () => {
    const saved = process.env.AUTH_REDIRECT_PROXY_URL
    try {
      const site = await startSite({ beforeApp: () => (process.env.AUTH_REDIRECT_PROXY_URL = "https://env-proxy.example/auth") })
      const url = authorizationUrl(await startSignIn(site.agent()))
      expect(url.searchParams.get("redirect_uri")).toBe("https://env-proxy.example/auth/callback/idp")
    } finally {
      if (saved === undefined) delete process.env.AUTH_REDIRECT_PROXY_URL
      else process.env.AUTH_REDIRECT_PROXY_URL = saved
    }
  })

  test("issue #12: X-Forwarded-Host from a hop Express does not trust cannot pick the callback sealed into state", async () => {
    const proxy = await reserve()
    try {
      const proxyAuth = `${proxy.url}/auth`
      const site = await startSite({ clients: () => [client(proxy.url)], providers: (idp) => [oidc(idp, { redirectProxyUrl: proxyAuth })] })
      proxy.attach(makeApp(testConfig({ providers: [oidc(site.idp, { redirectProxyUrl: proxyAuth })] })))
      const agent = site.agent()
      const token = (await agent.get("/auth/csrf").set("X-Forwarded-Host", "evil.example")).body.csrfToken as string
      const start = await agent.post("/auth/signin/idp").set("X-Forwarded-Host", "evil.example").type("form").send({ csrfToken: token })
      const atProxy = await site.idp.browse(authorizationUrl(start).href, `${proxyAuth}/callback/idp`)
      const forwarded = await request(proxy.url).get(local(atProxy)).expect(302)
      const back = new URL(String(forwarded.headers.location))
      // The deployment sealed into state is the one the request reached, not the forged host.
      expect(back.origin + back.pathname).toBe(site.callbackUrl())
      expect(String(forwarded.headers.location)).not.toContain("evil.example")
    } finally {
      await proxy.close()
    }
  })

  test("a whole sign-in through a proxy deployment: the IdP returns to the proxy, which forwards to this site", async () => {
    const proxy = await reserve()
    try {
      const proxyAuth = `${proxy.url}/auth`
      const site = await startSite({
        clients: () => [client(proxy.url)],
        providers: (idp) => [oidc(idp, { redirectProxyUrl: proxyAuth })],
      })
      proxy.attach(makeApp(testConfig({ providers: [oidc(site.idp, { redirectProxyUrl: proxyAuth })] })))
      const agent = site.agent()
      const start = await startSignIn(agent)
      expect(authorizationUrl(start).searchParams.get("redirect_uri")).toBe(`${proxyAuth}/callback/idp`)
      const atProxy = await site.idp.browse(authorizationUrl(start).href, `${proxyAuth}/callback/idp`)
      const forwarded = await request(proxy.url).get(local(atProxy)).expect(302)
      const back = new URL(String(forwarded.headers.location))
      expect(back.origin + back.pathname).toBe(site.callbackUrl())
      expect(back.searchParams.get("code")).toBe(atProxy.searchParams.get("code"))
      expect(site.idp.hits["/token"]).toBeUndefined()

      const callback = await agent.get(local(back))
      expect(callback.headers.location).toBe(`${site.url}/`)
      expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
      expect(site.errors).not.toHaveBeenCalled()
    } finally {
      await proxy.close()
    }
  })
})
