/**
 * What catalog providers need from Gatehouse's OAuth flow (lib/providers/oauth/, lib/core/):
 * token params, issuer comparison (Entra ID's multi-tenant issuer, a trailing slash), endpoint URLs
 * with their own query, fixed provider parameters a browser cannot replace, form_post cookies,
 * and typed provider records in a providers list. Each was a gap the catalog found.
 */
import { customFetch } from "../../lib/core/symbols.js"
import Apple from "../../lib/providers/apple.js"
import Auth0 from "../../lib/providers/auth0.js"
import GitHub from "../../lib/providers/github.js"
import MicrosoftEntraID from "../../lib/providers/microsoft-entra-id.js"
import Spotify from "../../lib/providers/spotify.js"
import TikTok from "../../lib/providers/tiktok.js"
import { csrfToken, findCookie, makeApp, request, testConfig } from "../helpers/app.js"
import type { AuthConfig } from "../../lib/types.js"
import {
  asProvider,
  authorizeRoute,
  discoveryFetch,
  localProvider,
  oidcDocument,
  sendJson,
  signInThrough,
  startSignin,
  wellKnownOf,
  type LocalProvider,
} from "./support.js"

describe("token endpoint parameters", () => {
  let local: LocalProvider
  beforeEach(async () => {
    local = await localProvider({
      "/authorize": authorizeRoute("code-1"),
      "/token": (_request, res) => sendJson(res, { access_token: "at", token_type: "Bearer", expires_in: 3600 }),
      "/me": (_request, res) => sendJson(res, { id: "u1", display_name: "U One", images: [] }),
    })
  })
  afterEach(() => local.close())

  // At ee3a98f the flow called authorizationCodeGrant() without its tokenEndpointParameters
  // argument, so `token: { url, params }` params never reached the token request; fixed in
  // 6bd03f2. Kept as a regression test.
  test("token.params are sent in the token request body", async () => {
    const provider = Spotify({
      clientId: "c",
      clientSecret: "s",
      authorization: `${local.url}/authorize`,
      token: { url: `${local.url}/token`, params: { audience: "https://api.example.com" } },
      userinfo: `${local.url}/me`,
    })
    const result = await signInThrough(provider, local.url)
    expect(result.session?.user?.name).toBe("U One")
    expect(new URLSearchParams(local.at("/token")[0]!.body).get("audience")).toBe("https://api.example.com")
  })
})

describe("issuer comparison", () => {
  // client.ts compares the discovered issuer with `issuer` character for character, even when the
  // issuer URL itself was used for discovery (openid-client has already checked it there, with
  // URL normalisation and its Entra ID multi-tenant rule). Two consequences:

  test("Microsoft Entra ID: an explicit multi-tenant issuer (…/common/v2.0) can start a sign-in", async () => {
    const document = oidcDocument("https://login.microsoftonline.com/{tenantid}/v2.0", {
      authorization_endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    })
    const recorder = discoveryFetch({ "https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration": document })
    const provider = MicrosoftEntraID({ clientId: "c", issuer: "https://login.microsoftonline.com/common/v2.0", [customFetch]: recorder.fetch })
    const { location } = await startSignin(provider)
    expect(location.pathname).toBe("/common/oauth2/v2.0/authorize")
  })

  test("Auth0: AUTH_AUTH0_ISSUER written without the trailing slash can start a sign-in", async () => {
    process.env.AUTH_AUTH0_ISSUER = "https://acme.eu.auth0.com"
    try {
      const document = oidcDocument("https://acme.eu.auth0.com/")
      const recorder = discoveryFetch({ [wellKnownOf(document.issuer)]: document })
      const { location } = await startSignin(Auth0({ clientId: "c", clientSecret: "s", [customFetch]: recorder.fetch }))
      expect(location.origin).toBe("https://acme.eu.auth0.com")
    } finally {
      delete process.env.AUTH_AUTH0_ISSUER
    }
  })
})

describe("authorization request", () => {
  // openid-client's buildAuthorizationUrl() appends parameters to the endpoint URL, so a
  // configured URL that carries a parameter the flow or `params` also sets sends it twice.
  test("a configured authorization URL's own query parameters are not sent twice", async () => {
    const { location } = await startSignin(GitHub({ clientId: "c", clientSecret: "s", authorization: "https://github.com/login/oauth/authorize?scope=repo&allow_signup=false" }))
    expect(location.searchParams.getAll("allow_signup")).toEqual(["false"])
    expect(location.searchParams.getAll("scope")).toHaveLength(1)
  })

  // Providers cannot mark their own parameters as fixed: a browser's sign-in request may replace
  // any parameter but the flow's own and `scope` (here TikTok's client_key).
  test("a browser cannot replace a provider's fixed authorization parameter (TikTok's client_key)", async () => {
    const app = makeApp(testConfig({ providers: [asProvider(TikTok({ clientId: "real-key", clientSecret: "s" }))] }))
    const agent = request.agent(app)
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signin/tiktok?client_key=other-app").type("form").send({ csrfToken: token })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.location as string).searchParams.get("client_key")).toBe("real-key")
  })

  // Apple answers with response_mode=form_post: a cross-site POST that browsers send without
  // SameSite=Lax cookies. Over HTTPS the flow's cookies for such a provider are SameSite=None.
  test("a form_post provider's check cookies are sent on the provider's cross-site POST (SameSite=None, over HTTPS)", async () => {
    const document = oidcDocument("https://appleid.apple.com")
    const recorder = discoveryFetch({ [wellKnownOf(document.issuer)]: document })
    const app = makeApp(testConfig({ providers: [asProvider(Apple({ clientId: "c", clientSecret: "s", [customFetch]: recorder.fetch }))] }))
    // HTTPS as a trusted proxy reports it (a hop Express trusts; development trusts the host):
    // Secure cookies, prefixed names.
    app.set("trust proxy", "loopback")
    const https = { "X-Forwarded-Proto": "https", Host: "app.test" }
    const csrf = await request(app).get("/auth/csrf").set(https)
    const pair = String(csrf.headers["set-cookie"]).split(";")[0]
    const response = await request(app).post("/auth/signin/apple").set(https).set("Cookie", pair).type("form").send({ csrfToken: csrf.body.csrfToken })
    expect(response.status).toBe(302)
    for (const name of ["__Secure-authjs.state", "__Secure-authjs.nonce"]) {
      expect(findCookie(response, name)).toMatchObject({ sameSite: "none", secure: true, httpOnly: true })
    }
  })

  test("over plain HTTP a form_post provider's cookies stay SameSite=Lax (browsers refuse None without Secure)", async () => {
    const document = oidcDocument("https://appleid.apple.com")
    const recorder = discoveryFetch({ [wellKnownOf(document.issuer)]: document })
    const app = makeApp(testConfig({ providers: [asProvider(Apple({ clientId: "c", clientSecret: "s", [customFetch]: recorder.fetch }))] }))
    const agent = request.agent(app)
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signin/apple").type("form").send({ csrfToken: token })
    expect(findCookie(response, "authjs.state")?.sameSite).toBe("lax")
  })
})

describe("types", () => {
  // Typed built-ins (OAuthProviderConfig<GitHubProfile> ...) stand in a providers list as they are.
  test("every catalog factory's record is a Provider without a cast", () => {
    const providers: AuthConfig["providers"] = [GitHub(), Apple({ clientId: "c", clientSecret: "s" }), TikTok(), Spotify(), Auth0({ issuer: "https://x.auth0.com/" })]
    expect(providers).toHaveLength(5)
  })
})
