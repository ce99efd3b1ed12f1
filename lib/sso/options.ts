/**
 * The `sso` option (issue #28), checked and resolved once with the configuration. Off unless given;
 * needs organizations (connections and domains belong to one) and an adapter with the storage
 * methods (`MissingAdapterMethods` names the ones it lacks).
 */
import { Resolver } from "node:dns/promises"
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import { SSO_ADAPTER_METHODS } from "./adapter.js"
import type { ResolvedSso, SsoOptions } from "./settings.js"

export type { ResolvedSso, SsoOptions } from "./settings.js"

const PEM = /-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/

function resolverOf(dns: SsoOptions["dns"]): (name: string) => Promise<string[][]> {
  if (dns?.resolveTxt !== undefined) {
    if (typeof dns.resolveTxt !== "function") throw new InvalidOption("sso.dns.resolveTxt must be a function of a name")
    return dns.resolveTxt
  }
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (dns?.servers !== undefined) {
    if (!Array.isArray(dns.servers) || !dns.servers.length || !dns.servers.every((server) => typeof server === "string" && server.length > 0)) {
      throw new InvalidOption(`sso.dns.servers must be a list of servers such as ["127.0.0.1:5353"] (got ${JSON.stringify(dns.servers)})`)
    }
    resolver.setServers(dns.servers)
  }
  return (name) => resolver.resolveTxt(name)
}

export function resolveSso(option: unknown, adapter: Adapter | undefined, organizationsOn: boolean): ResolvedSso | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) {
    throw new InvalidOption(`sso must be true or an object such as { saml: { clockSkew: 60 } } (got ${JSON.stringify(option)})`)
  }
  if (!organizationsOn) throw new InvalidOption("sso needs the organizations option: connections and domains belong to an organization")
  const given = (option === true ? {} : option) as SsoOptions
  const saml = given.saml ?? {}
  const { clockSkew = 60, maxResponseSize = 256 * 1024, signingKey, signingCert } = saml
  if (typeof clockSkew !== "number" || !Number.isInteger(clockSkew) || clockSkew < 0 || clockSkew > 300) throw new InvalidOption(`sso.saml.clockSkew must be whole seconds from 0 to 300 (got ${JSON.stringify(clockSkew)})`)
  if (typeof maxResponseSize !== "number" || !Number.isInteger(maxResponseSize) || maxResponseSize < 4096 || maxResponseSize > 4 * 1024 * 1024) {
    throw new InvalidOption(`sso.saml.maxResponseSize must be from 4096 to 4194304 characters (got ${JSON.stringify(maxResponseSize)})`)
  }
  if (signingKey !== undefined && (typeof signingKey !== "string" || !PEM.test(signingKey))) throw new InvalidOption("sso.saml.signingKey must be a PEM private key")
  if (signingCert !== undefined && (typeof signingCert !== "string" || !PEM.test(signingCert))) throw new InvalidOption("sso.saml.signingCert must be a PEM certificate")
  if ((signingKey === undefined) !== (signingCert === undefined)) throw new InvalidOption("sso.saml.signingKey and sso.saml.signingCert go together")
  const txtPrefix = given.txtPrefix ?? "_gatehouse-challenge"
  if (typeof txtPrefix !== "string" || !/^[a-z0-9_-]{1,63}$/i.test(txtPrefix)) throw new InvalidOption(`sso.txtPrefix must be one DNS label (got ${JSON.stringify(txtPrefix)})`)
  if (!adapter) throw new MissingAdapter("sso needs an adapter (connections and domains are stored)")
  const missing = SSO_ADAPTER_METHODS.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`sso needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
  return Object.freeze({
    saml: Object.freeze({ signingKey, signingCert, clockSkewMs: clockSkew * 1000, maxResponseSize }),
    resolveTxt: resolverOf(given.dns),
    txtPrefix,
  })
}
