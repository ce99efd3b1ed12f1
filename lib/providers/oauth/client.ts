/**
 * The openid-client `Configuration` of each OAuth/OIDC provider: discovered from its issuer (or
 * `wellKnown` URL) or built from explicit endpoints, once per provider record. Discovery runs on
 * first use, is shared by concurrent requests, and a failure is not cached (the next sign-in
 * retries), like jose's remote JWKS.
 */
import * as client from "openid-client"
import { OAuthSignInError } from "../../errors.js"
import { customFetch } from "../../core/symbols.js"
import type { OAuthProviderConfig } from "../types.js"
import { endpoint } from "./options.js"

const pending = new WeakMap<OAuthProviderConfig, Promise<client.Configuration>>()

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

async function build(provider: OAuthProviderConfig): Promise<client.Configuration> {
  const clientId = provider.clientId as string
  const metadata = { ...provider.client, client_secret: provider.clientSecret }
  const auth = clientAuthentication(provider)
  const fetchImpl = provider[customFetch]
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
      ...(fetchImpl && { [client.customFetch]: fetchImpl as client.CustomFetch }),
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
  if (fetchImpl) config[client.customFetch] = fetchImpl as client.CustomFetch
  // openid-client does not verify ID token signatures in the code flow unless asked: ask.
  if (provider.type === "oidc") client.enableNonRepudiationChecks(config)
  return config
}

export function oauthConfiguration(provider: OAuthProviderConfig): Promise<client.Configuration> {
  let configuration = pending.get(provider)
  if (!configuration) {
    configuration = build(provider)
    pending.set(provider, configuration)
    configuration.catch(() => pending.delete(provider))
  }
  return configuration
}
