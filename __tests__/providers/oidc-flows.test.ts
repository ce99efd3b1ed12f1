/**
 * Whole sign-ins for the OIDC providers whose flow has a twist, against an identity provider
 * simulated inside the provider's `[customFetch]` (discovery, JWKS, token endpoint and Graph
 * photo answered locally, ID tokens signed with a test key): Microsoft Entra ID's multi-tenant
 * issuer (`{tenantid}` in the discovery document, the user's tenant in the ID token), and Apple's
 * form_post callback with a nonce and client_secret_post.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey as JoseKey } from "jose"
import { customFetch } from "../../lib/core/symbols.js"
import Apple from "../../lib/providers/apple.js"
import MicrosoftEntraID from "../../lib/providers/microsoft-entra-id.js"
import { csrfToken, makeApp, request, serve, testConfig } from "../helpers/app.js"
import { asProvider, oidcDocument, type CatalogProvider, type DiscoveryDocument } from "./support.js"

const CLIENT_ID = "6cb04018-a3f5-46a7-b995-940c78f5aef3"
const CLIENT_SECRET = "entra-client-secret"
const USER_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad"
const PHOTO = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])

let privateKey: JoseKey
let jwks: { keys: object[] }

beforeAll(async () => {
  const pair = await generateKeyPair("RS256")
  privateKey = pair.privateKey
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "test-key", alg: "RS256", use: "sig" }] }
})

function idToken(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-key" }).setIssuedAt().setExpirationTime("10m").sign(privateKey)
}

interface FakeIdp {
  fetch: typeof fetch
  /** Requests seen: method, URL, body. */
  seen: Array<{ method: string; url: string; body: string; headers: Record<string, string> }>
}

/** An identity provider answered inside fetch: documents by URL, the token endpoint by a function. */
function fakeIdp(routes: Record<string, (body: URLSearchParams) => Promise<Response> | Response>): FakeIdp {
  const seen: FakeIdp["seen"] = []
  const fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    const body = init?.body === undefined || init.body === null ? "" : String(init.body)
    seen.push({ method: init?.method ?? "GET", url, body, headers: Object.fromEntries(new Headers(init?.headers).entries()) })
    const route = routes[url.split("?")[0]!]
    return route ? route(new URLSearchParams(body)) : new Response("not found", { status: 404 })
  }) as typeof fetch
  return { fetch: fetchImpl, seen }
}

async function startAt(provider: CatalogProvider) {
  const errors: Error[] = []
  const app = makeApp(testConfig({ providers: [asProvider(provider)], logger: { error: (error: Error) => errors.push(error) } }))
  const site = await serve(app)
  const agent = request.agent(site.url)
  const token = await csrfToken(agent)
  const start = await agent.post(`/auth/signin/${provider.id}`).type("form").send({ csrfToken: token, callbackUrl: `${site.url}/dashboard` })
  expect(start.status).toBe(302)
  return { site, agent, errors, location: new URL(start.headers.location as string) }
}

describe("Microsoft Entra ID, tenant common", () => {
  const discovery = "https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration"
  const document: DiscoveryDocument = oidcDocument("https://login.microsoftonline.com/{tenantid}/v2.0", {
    authorization_endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    token_endpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    userinfo_endpoint: "https://graph.microsoft.com/oidc/userinfo",
    jwks_uri: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
  })

  function entra(claims: Record<string, unknown>, photo = true) {
    return fakeIdp({
      [discovery]: () => Response.json(document),
      [document.jwks_uri]: () => Response.json(jwks),
      [document.token_endpoint]: async () =>
        Response.json({ token_type: "Bearer", scope: "openid profile email User.Read", expires_in: 3600, access_token: "graph-access-token", id_token: await idToken(claims) }),
      "https://graph.microsoft.com/v1.0/me/photos/48x48/$value": () =>
        photo ? new Response(PHOTO, { headers: { "content-type": "image/jpeg" } }) : new Response("{}", { status: 404 }),
    })
  }

  const claims = {
    iss: `https://login.microsoftonline.com/${USER_TENANT}/v2.0`,
    aud: CLIENT_ID,
    sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    tid: USER_TENANT,
    oid: "00000000-0000-0000-66f3-3332eca7ea81",
    name: "Abe Lincoln",
    preferred_username: "abeli@outlook.com",
    email: "abeli@outlook.com",
    ver: "2.0",
  }

  test("an ID token from the user's own tenant is accepted; the Graph photo becomes the image", async () => {
    const idp = entra(claims)
    const provider = MicrosoftEntraID({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: idp.fetch })
    const { site, agent, errors, location } = await startAt(provider)
    try {
      expect(`${location.origin}${location.pathname}`).toBe(document.authorization_endpoint)
      expect(location.searchParams.has("state")).toBe(false) // PKCE only
      const callback = await agent.get("/auth/callback/microsoft-entra-id?code=entra-code")
      expect(errors).toEqual([])
      expect(callback.headers.location).toBe(`${site.url}/dashboard`)
      const session = await agent.get("/auth/session").expect(200)
      expect(session.body.user).toEqual({ name: "Abe Lincoln", email: "abeli@outlook.com", image: `data:image/jpeg;base64,${PHOTO.toString("base64")}` })
      const photo = idp.seen.find((entry) => entry.url.startsWith("https://graph.microsoft.com/"))
      expect(photo?.headers.authorization).toBe("Bearer graph-access-token")
      // The profile comes from the ID token: the OIDC userinfo endpoint is never called.
      expect(idp.seen.some((entry) => entry.url === document.userinfo_endpoint)).toBe(false)
    } finally {
      await site.close()
    }
  })

  test("no photo (404) means no image; profilePhotoSize: false skips the request", async () => {
    for (const [photo, size] of [[false, 48], [true, false]] as const) {
      const idp = entra(claims, photo)
      const provider = MicrosoftEntraID({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, profilePhotoSize: size, [customFetch]: idp.fetch })
      const { site, agent, errors } = await startAt(provider)
      try {
        await agent.get("/auth/callback/microsoft-entra-id?code=entra-code")
        expect(errors).toEqual([])
        const session = await agent.get("/auth/session").expect(200)
        expect(session.body.user).toEqual({ name: "Abe Lincoln", email: "abeli@outlook.com", image: null })
        expect(idp.seen.some((entry) => entry.url.startsWith("https://graph.microsoft.com/"))).toBe(size !== false)
      } finally {
        await site.close()
      }
    }
  })

  test("an ID token whose issuer is not its own tenant's is refused", async () => {
    const idp = entra({ ...claims, iss: "https://login.microsoftonline.com/00000000-1111-2222-3333-444444444444/v2.0" })
    const provider = MicrosoftEntraID({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: idp.fetch })
    const { site, agent, errors } = await startAt(provider)
    try {
      const callback = await agent.get("/auth/callback/microsoft-entra-id?code=entra-code")
      expect(callback.headers.location).toContain("/auth/signin?error=OAuthCallbackError")
      expect(errors.map((error) => (error as { type?: string }).type)).toEqual(["OAuthCallbackError"])
      expect((await agent.get("/auth/session")).body).toBeNull()
    } finally {
      await site.close()
    }
  })
})

describe("Apple: form_post callback, nonce, client_secret_post", () => {
  const document = oidcDocument("https://appleid.apple.com", {
    authorization_endpoint: "https://appleid.apple.com/auth/authorize",
    token_endpoint: "https://appleid.apple.com/auth/token",
    jwks_uri: "https://appleid.apple.com/auth/keys",
    response_modes_supported: ["query", "fragment", "form_post"],
    token_endpoint_auth_methods_supported: ["client_secret_post"],
  })
  delete document.userinfo_endpoint

  test("Apple POSTs the code back; the ID token (with the nonce) gives the user", async () => {
    let nonce = ""
    const idp = fakeIdp({
      "https://appleid.apple.com/.well-known/openid-configuration": () => Response.json(document),
      [document.jwks_uri]: () => Response.json(jwks),
      [document.token_endpoint]: async () =>
        Response.json({
          access_token: "apple-access-token",
          token_type: "Bearer",
          expires_in: 3600,
          refresh_token: "apple-refresh-token",
          id_token: await idToken({
            iss: "https://appleid.apple.com",
            aud: "com.example.web",
            sub: "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1234",
            nonce,
            nonce_supported: true,
            email: "x7fj2k9q4b@privaterelay.appleid.com",
            email_verified: "true",
            is_private_email: "true",
            auth_time: Math.floor(Date.now() / 1000),
          }),
        }),
    })
    const provider = Apple({ clientId: "com.example.web", clientSecret: "apple-client-secret-jwt", [customFetch]: idp.fetch })
    const { site, agent, errors, location } = await startAt(provider)
    try {
      expect(`${location.origin}${location.pathname}`).toBe("https://appleid.apple.com/auth/authorize")
      expect(location.searchParams.getAll("response_mode")).toEqual(["form_post"])
      expect(location.searchParams.get("scope")).toBe("name email")
      nonce = location.searchParams.get("nonce") ?? ""
      expect(nonce).not.toBe("")
      const callback = await agent
        .post("/auth/callback/apple")
        .type("form")
        .send({ code: "apple-code", state: location.searchParams.get("state") ?? "", user: JSON.stringify({ name: { firstName: "Jane", lastName: "Appleseed" } }) })
      expect(errors).toEqual([])
      expect(callback.headers.location).toBe(`${site.url}/dashboard`)
      const session = await agent.get("/auth/session").expect(200)
      expect(session.body.user).toEqual({ name: null, email: "x7fj2k9q4b@privaterelay.appleid.com", image: null })
      const token = idp.seen.find((entry) => entry.url === document.token_endpoint)!
      const body = new URLSearchParams(token.body)
      expect([body.get("client_id"), body.get("client_secret"), token.headers.authorization]).toEqual(["com.example.web", "apple-client-secret-jwt", undefined])
      expect(body.has("code_verifier")).toBe(false)
    } finally {
      await site.close()
    }
  })
})
