/**
 * A real OpenID provider for the tests: `oidc-provider` on 127.0.0.1, with accounts the test
 * defines, login and consent completed programmatically for the account in `nextLogin`, and a
 * count of the requests each endpoint received. `browse(url)` follows the IdP's redirects with a
 * cookie jar of its own (a user's browser at the IdP) and returns where the IdP finally sends the
 * user back (the app's callback URL with code, state, iss).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider"

export interface IdpAccount {
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
  [claim: string]: unknown
}

export interface TestIdp {
  issuer: string
  provider: Provider
  accounts: Record<string, IdpAccount>
  /** The account the next login at the IdP signs in as. */
  nextLogin: string
  /** Requests received, by path (`/token`, `/me`, `/jwks`, ...). */
  hits: Record<string, number>
  /** Follows the IdP's redirects from `url` until it sends the user back to `returnTo`; returns that URL. */
  browse(url: string, returnTo: string): Promise<URL>
  close(): Promise<void>
}

export interface IdpOptions {
  clients: ClientMetadata[]
  accounts?: Record<string, IdpAccount>
  configuration?: Partial<Configuration>
}

export const IDP_ACCOUNTS: Record<string, IdpAccount> = {
  alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell", picture: "https://img.example/alice.png" },
  bob: { email: "bob@example.com", email_verified: true, name: "Bob Builder" },
  mallory: { email: "mallory@example.com", email_verified: true, name: "Mallory" },
}

export async function startIdp(options: IdpOptions): Promise<TestIdp> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.address() as AddressInfo
  const issuer = `http://127.0.0.1:${port}`
  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "test-key" }
  const accounts = { ...IDP_ACCOUNTS, ...options.accounts }
  const provider = new Provider(issuer, {
    clients: options.clients,
    jwks: { keys: [jwk as never] },
    cookies: { keys: ["gatehouse-test-cookie-key"] },
    findAccount: async (_ctx, sub) => (accounts[sub] ? { accountId: sub, claims: async () => ({ sub, ...accounts[sub] }) } : undefined),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    ...options.configuration,
  })
  const handle = provider.callback()
  const idp: TestIdp = {
    issuer,
    provider,
    accounts,
    nextLogin: "alice",
    hits: {},
    async browse(url, returnTo) {
      const jar = new Map<string, string>()
      let next = new URL(url)
      for (let hop = 0; hop < 10; hop++) {
        if (next.href.startsWith(returnTo)) return next
        const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
        const response = await fetch(next, { redirect: "manual", headers: cookie ? { cookie } : {} })
        for (const line of response.headers.getSetCookie()) {
          const [pair = ""] = line.split(";")
          const separator = pair.indexOf("=")
          jar.set(pair.slice(0, separator), pair.slice(separator + 1))
        }
        const location = response.headers.get("location")
        if (!location) throw new Error(`The IdP answered ${response.status} at ${next.pathname}: ${(await response.text()).slice(0, 300)}`)
        next = new URL(location, next)
      }
      throw new Error("Too many redirects at the IdP")
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res)
    if (details.prompt.name === "login") {
      await provider.interactionFinished(req, res, { login: { accountId: idp.nextLogin } }, { mergeWithLastSubmission: false })
      return
    }
    const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: details.params.client_id as string })
    grant.addOIDCScope(String(details.params.scope ?? "openid"))
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  }
  server.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname
    idp.hits[path] = (idp.hits[path] ?? 0) + 1
    if (path.startsWith("/interaction/")) {
      interaction(req, res).catch((error: Error) => {
        res.statusCode = 500
        res.end(error.message)
      })
      return
    }
    handle(req, res)
  })
  return idp
}
