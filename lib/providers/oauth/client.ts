/**
 * The openid-client `Configuration` of each OAuth/OIDC provider: discovered from its issuer (or
 * `wellKnown` URL) or built from explicit endpoints, once per provider record. Discovery runs on
 * first use, is shared by concurrent requests, and a failure is not cached (the next sign-in
 * retries), like jose's remote JWKS. A configuration older than an hour is rebuilt in the
 * background while the old one keeps serving (and keeps serving if the issuer is down). Every
 * call goes through the provider's bounded fetch (lib/outbound/).
 */
import * as client from "openid-client"
import { OAuthSignInError } from "../../errors.js"
import { providerFetch } from "../../outbound/fetch.js"
import { outboundLimits } from "../../outbound/options.js"
import type { OAuthProviderConfig } from "../types.js"
import { endpoint } from "./options.js"

/** How long a built configuration (with its discovery document) is used before it is rebuilt. */
export const CONFIGURATION_MAX_AGE_MS = 60 * 60 * 1000

interface Built {
  configuration: Promise<client.Configuration>
  builtAt: number
  refreshing?: boolean
}

const built = new WeakMap<OAuthProviderConfig, Built>()

/** HTTP is allowed only for loopback hosts (local development and tests); anything else needs HTTPS. */
function loopback(url: string | undefined): boolean {
  if (!url) return false
  const { protocol, hostname } = new URL(url)
  return protocol === "http:" && (hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]")
}

function clientAuthentication(provider: OAuthProviderConfig): client.ClientAuth {
  const method = provider.client?.token_endpoint_auth_method ?? (provider.clientSecret ? "client_secret_basic" : "none")
  switch (method) {
    case "client_secret_basic":
      return client.ClientSecretBasic(provider.clientSecret)
    case "client_secret_post":
      return client.ClientSecretPost(provider.clientSecret)
    case "client_secret_jwt":
      return client.ClientSecretJwt(provider.clientSecret)
    case "private_key_jwt": {
      const key = provider.privateKey
      if (!key) throw new OAuthSignInError(`Provider "${provider.id}" uses private_key_jwt but has no privateKey`)
      return client.PrivateKeyJwt(key as client.CryptoKey | { key: client.CryptoKey; kid?: string })
    }
    case "none":
      return client.None()
    default:
      throw new OAuthSignInError(`Provider "${provider.id}": token_endpoint_auth_method ${method} is not supported`)
  }
}

async function build(provider: OAuthProviderConfig, log?: (message: string) => void): Promise<client.Configuration> {
  const clientId = provider.clientId as string
  const metadata = { ...provider.client, client_secret: provider.clientSecret }
  const auth = clientAuthentication(provider)
  const fetchImpl = providerFetch(provider, log)
  // openid-client's own request timeout (seconds) is kept behind ours, so ours names the failure.
  const timeout = Math.ceil(outboundLimits(provider.outbound).timeout / 1000) + 1
  const authorization = endpoint(provider.authorization, provider).url
  const token = endpoint(provider.token, provider, true).url
  const userinfo = endpoint(provider.userinfo, provider).url
  const insecure = [provider.issuer, provider.wellKnown, authorization, token, userinfo].some(loopback)
  let config: client.Configuration
  if (provider.issuer || provider.wellKnown) {
    const server = new URL(provider.wellKnown ?? (provider.issuer as string))
    config = await client.discovery(server, clientId, metadata, auth, {
      algorithm: provider.type === "oidc" ? "oidc" : "oauth2",
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout,
      [client.customFetch]: fetchImpl as client.CustomFetch,
    })
    // A plain copy: the metadata object also carries helper methods.
    const discovered = JSON.parse(JSON.stringify(config.serverMetadata())) as client.ServerMetadata
    // From the issuer, openid-client checks the discovered issuer itself (with Entra ID's tenant
    // rule). From an explicit discovery URL it cannot: do it here (mix-up defence), ignoring only
    // a trailing slash.
    const same = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "")
    if (provider.wellKnown && provider.issuer && !same(discovered.issuer, provider.issuer)) {
      throw new OAuthSignInError(`Provider "${provider.id}": the discovery document names issuer ${discovered.issuer}, not ${provider.issuer}`)
    }
    if (authorization || token || userinfo) {
      config = new client.Configuration(
        {
          ...discovered,
          ...(authorization && { authorization_endpoint: authorization }),
          ...(token && { token_endpoint: token }),
          ...(userinfo && { userinfo_endpoint: userinfo }),
        },
        clientId,
        metadata,
        auth,
      )
    }
  } else {
    config = new client.Configuration(
      {
        issuer: new URL(authorization as string).origin,
        authorization_endpoint: authorization,
        token_endpoint: token,
        ...(userinfo && { userinfo_endpoint: userinfo }),
        ...(provider.jwks_endpoint && { jwks_uri: provider.jwks_endpoint }),
      },
      clientId,
      metadata,
      auth,
    )
  }
  if (insecure) client.allowInsecureRequests(config)
  config[client.customFetch] = fetchImpl as client.CustomFetch
  config.timeout = timeout
  // openid-client does not verify ID token signatures in the code flow unless asked: ask.
  if (provider.type === "oidc") client.enableNonRepudiationChecks(config)
  return config
}

export function oauthConfiguration(provider: OAuthProviderConfig, log?: (message: string) => void): Promise<client.Configuration> {
  const entry = built.get(provider)
  if (!entry) {
    const configuration = build(provider, log)
    built.set(provider, { configuration, builtAt: Date.now() })
    configuration.catch(() => built.delete(provider))
    return configuration
  }
  if (!entry.refreshing && Date.now() - entry.builtAt > CONFIGURATION_MAX_AGE_MS) {
    // Stale-while-revalidate: this request uses the configuration in hand.
    entry.refreshing = true
    build(provider, log).then(
      (fresh) => built.set(provider, { configuration: Promise.resolve(fresh), builtAt: Date.now() }),
      (error: Error) => {
        entry.refreshing = false
        log?.(`Provider "${provider.id}": the configuration could not be refreshed (${error.message}); the previous one stays in use`)
      },
    )
  }
  return entry.configuration
}
