/**
 * How the client authenticates at the token endpoint (client_secret_basic, client_secret_post,
 * none, private_key_jwt), checked both by the IdP accepting or refusing the exchange and by the
 * request the provider's customFetch saw, and the client id and secret from AUTH_{PROVIDER}_ID
 * and AUTH_{PROVIDER}_SECRET.
 */
import { exportJWK, generateKeyPair, decodeProtectedHeader, decodeJwt } from "jose"
import type { ClientMetadata } from "oidc-provider"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import { makeApp, testConfig } from "../helpers/app.js"
import {
  CLIENT_ID,
  CLIENT_SECRET,
  client,
  expectSignInError,
  loggedTypes,
  oauthSuite,
  oidc,
  recordingFetch,
  sessionOf,
  signInFlow,
  startSite,
  type Site,
} from "./support.js"

oauthSuite()

/** A site whose provider records its requests; returns the site and the token request seen. */
async function signInWith(clientMetadata: (url: string) => ClientMetadata, provider: Partial<OAuthProviderConfig>, prepare?: (site: Site) => void) {
  const id = "idp"
  const recorder = recordingFetch()
  const site = await startSite({
    clients: (url) => [clientMetadata(url)],
    providers: (idp) => [{ ...oidc(idp, { id, ...provider }), [recorder.symbol]: recorder.impl }],
  })
  prepare?.(site)
  const agent = site.agent()
  const flow = await signInFlow(site, agent, { id })
  const token = recorder.seen.find((entry) => entry.url === `${site.idp.issuer}/token`)
  return { site, agent, flow, token }
}

/** The client id and secret of an HTTP Basic header (RFC 6749 §2.3.1: each form-urlencoded). */
function fromBasic(header: string | null | undefined): [string, string] | undefined {
  const match = /^Basic (.+)$/.exec(header ?? "")
  if (!match) return undefined
  const [id = "", secret = ""] = Buffer.from(match[1] as string, "base64").toString("utf8").split(":")
  const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "))
  return [decode(id), decode(secret)]
}

/**
 * The client's public key, served at `${site.url}/client-jwks` for the IdP's `jwks_uri`. (An
 * inline `jwks` is refused by oidc-provider under Jest: it structuredClones static clients into
 * the main realm and then finds the keys are not plain objects of its own realm.)
 */
async function clientKeys() {
  const registered = await generateKeyPair("ES256")
  const jwk = { ...(await exportJWK(registered.publicKey)), kid: "client-key-1", alg: "ES256", use: "sig" }
  return {
    registered,
    metadata: (url: string) => client(url, { token_endpoint_auth_method: "private_key_jwt", client_secret: undefined, jwks_uri: `${url}/client-jwks` }),
    serve: (site: Site) => site.app.get("/client-jwks", (_req, res) => void res.json({ keys: [jwk] })),
  }
}

describe("client authentication at the token endpoint", () => {
  test("client_secret_basic (the default with a secret): HTTP Basic, no secret in the body", async () => {
    const { site, agent, flow, token } = await signInWith((url) => client(url), {})
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(token?.method).toBe("POST")
    expect(token?.headers.get("authorization")).toMatch(/^Basic /)
    expect(fromBasic(token?.headers.get("authorization"))).toEqual([CLIENT_ID, CLIENT_SECRET])
    expect(token?.body.has("client_secret")).toBe(false)
    expect(token?.body.get("grant_type")).toBe("authorization_code")
    expect(token?.body.get("code")).toBe(flow.back.searchParams.get("code"))
    expect(token?.body.get("redirect_uri")).toBe(site.callbackUrl())
    expect(token?.body.get("code_verifier")).toMatch(/^[\w-]{43,128}$/)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("client_secret_post: the id and secret in the form body, no Authorization header", async () => {
    const { site, agent, flow, token } = await signInWith(
      (url) => client(url, { token_endpoint_auth_method: "client_secret_post" }),
      { client: { token_endpoint_auth_method: "client_secret_post" } },
    )
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(token?.headers.has("authorization")).toBe(false)
    expect(token?.body.get("client_id")).toBe(CLIENT_ID)
    expect(token?.body.get("client_secret")).toBe(CLIENT_SECRET)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("none sends no secret, so the IdP refuses a confidential client (invalid_client)", async () => {
    const { site, agent, flow, token } = await signInWith((url) => client(url), { client: { token_endpoint_auth_method: "none" } })
    expect(token?.headers.has("authorization")).toBe(false)
    expect(token?.body.has("client_secret")).toBe(false)
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expect(loggedTypes(site)).toEqual(["OAuthCallbackError"])
    const cause = (site.errors.mock.calls[0]?.[0] as Error & { cause?: { err?: { error?: string } } }).cause
    expect(cause?.err?.error).toBe("invalid_client")
    expect(await sessionOf(agent)).toBeNull()
  })

  test("none (the default without a secret): a public client sends only its client_id", async () => {
    const { site, agent, flow, token } = await signInWith(
      (url) => client(url, { token_endpoint_auth_method: "none", client_secret: undefined }),
      { clientSecret: undefined },
    )
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(token?.headers.has("authorization")).toBe(false)
    expect(token?.body.get("client_id")).toBe(CLIENT_ID)
    expect(token?.body.has("client_secret")).toBe(false)
    expect(token?.body.has("client_assertion")).toBe(false)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("private_key_jwt: a client assertion signed with the provider's privateKey, verified by the IdP", async () => {
    const keys = await clientKeys()
    const { site, agent, flow, token } = await signInWith(
      keys.metadata,
      { clientSecret: undefined, client: { token_endpoint_auth_method: "private_key_jwt" }, privateKey: { key: keys.registered.privateKey, kid: "client-key-1" } },
      keys.serve,
    )
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    expect(token?.headers.has("authorization")).toBe(false)
    expect(token?.body.has("client_secret")).toBe(false)
    expect(token?.body.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    const assertion = String(token?.body.get("client_assertion"))
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: "ES256", kid: "client-key-1" })
    expect(decodeJwt(assertion)).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID })
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("private_key_jwt signed with a key the client did not register is refused by the IdP", async () => {
    const keys = await clientKeys()
    const other = await generateKeyPair("ES256")
    const { site, agent, flow, token } = await signInWith(
      keys.metadata,
      { clientSecret: undefined, client: { token_endpoint_auth_method: "private_key_jwt" }, privateKey: { key: other.privateKey, kid: "client-key-1" } },
      keys.serve,
    )
    expect(token?.body.get("client_assertion")).toBeTruthy()
    expectSignInError(site, flow.callback, "OAuthCallbackError")
    expect(await sessionOf(agent)).toBeNull()
  })
})

describe("client id, secret and issuer from the environment", () => {
  const NAMES = ["AUTH_TEST_IDP_ID", "AUTH_TEST_IDP_SECRET", "AUTH_TEST_IDP_ISSUER", "AUTH_IDP_ID", "AUTH_IDP_SECRET"] as const
  let saved: Record<string, string | undefined> = {}
  beforeEach(() => {
    saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]))
  })
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  })

  test("AUTH_{PROVIDER}_ID and AUTH_{PROVIDER}_SECRET (id in upper snake case) are used when the provider has none", async () => {
    const recorder = recordingFetch()
    const site = await startSite({
      clients: (url) => [client(url, { client_id: "env-client", client_secret: "env-secret-0123456789abcdef0123456789" }, "test-idp")],
      providers: (idp) => [{ ...oidc(idp, { id: "test-idp", clientId: undefined, clientSecret: undefined }), [recorder.symbol]: recorder.impl }],
      beforeApp: () => {
        process.env.AUTH_TEST_IDP_ID = "env-client"
        process.env.AUTH_TEST_IDP_SECRET = "env-secret-0123456789abcdef0123456789"
      },
    })
    const agent = site.agent()
    const flow = await signInFlow(site, agent, { id: "test-idp" })
    expect(new URL(String(flow.start.headers.location)).searchParams.get("client_id")).toBe("env-client")
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
    const token = recorder.seen.find((entry) => entry.url.endsWith("/token"))
    expect(fromBasic(token?.headers.get("authorization"))).toEqual(["env-client", "env-secret-0123456789abcdef0123456789"])
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("AUTH_{PROVIDER}_ISSUER is the issuer to discover when the provider has none", async () => {
    const site = await startSite({
      clients: (url) => [client(url, {}, "test-idp")],
      providers: (idp) => [oidc(idp, { id: "test-idp", issuer: undefined })],
      beforeApp: (idp) => {
        process.env.AUTH_TEST_IDP_ISSUER = idp.issuer
      },
    })
    const agent = site.agent()
    await signInFlow(site, agent, { id: "test-idp" })
    expect(site.idp.hits["/.well-known/openid-configuration"]).toBe(1)
    expect((await sessionOf(agent))?.user?.email).toBe("alice@example.com")
  })

  test("a clientId and clientSecret given in the provider win over the environment", async () => {
    const site = await startSite({
      beforeApp: () => {
        process.env.AUTH_IDP_ID = "wrong-client"
        process.env.AUTH_IDP_SECRET = "wrong-secret"
      },
    })
    const flow = await signInFlow(site, site.agent())
    expect(new URL(String(flow.start.headers.location)).searchParams.get("client_id")).toBe(CLIENT_ID)
    expect(flow.callback.headers.location).toBe(`${site.url}/`)
  })

  test("with neither, building the router fails and names the variable", () => {
    delete process.env.AUTH_TEST_IDP_ID
    const provider: OAuthProviderConfig = { id: "test-idp", name: "Test", type: "oidc", issuer: "https://idp.example" }
    expect(() => makeApp(testConfig({ providers: [provider] }))).toThrow(/AUTH_TEST_IDP_ID/)
  })
})
