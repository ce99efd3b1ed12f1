/**
 * The adapter methods enterprise sign-in needs (Gatehouse extensions, issue #28): an
 * organization's SSO connections (SAML 2.0 or OpenID Connect) and the email domains it claims and
 * proves. They join `Adapter` from here by declaration merging; `SSO_ADAPTER_METHODS` names them
 * for the core's adapter wrapper and for `MissingAdapterMethods`. The contract-kit checks are
 * adapters/test-kit/sso.ts.
 *
 * Rules the adapter keeps atomically: a connection id is unique; an organization claims a domain
 * once; a domain is verified for one organization at most (`verifyDomain` answers `"domainTaken"`
 * when another organization verified it first).
 */
import type { Awaitable } from "../base-types.js"

/** A SAML 2.0 identity provider, as a connection stores it. */
export interface SamlSettings {
  /** The IdP's entity id (its `Issuer`). */
  entityId: string
  /** Where AuthnRequests go (HTTP-Redirect binding). */
  ssoUrl: string
  /** Where LogoutRequests go (single logout), if the IdP has it. */
  sloUrl?: string | null
  /** The IdP's signing certificates (PEM or base64 DER): two during a rollover. Pinned: a signature by any other key is refused. */
  certificates: string[]
  /** Accept responses the IdP starts (no AuthnRequest of ours): off unless the organization turns it on. */
  allowIdpInitiated?: boolean
  /** Sign AuthnRequests with the app's SP key (`sso.saml.signingKey`). */
  signRequests?: boolean
  /** The NameID format asked for (default: unspecified). */
  nameIdFormat?: string | null
}

/** An OpenID Connect identity provider, as a connection stores it. */
export interface OidcSettings {
  issuer: string
  clientId: string
  /** Sealed by Gatehouse with the app's secret; adapters store it as an opaque string. */
  clientSecret: string
  /** Extra scopes beyond `openid email profile`. */
  scopes?: string[]
}

/** How the IdP's attributes become the user and their role. */
export interface SsoMapping {
  /** The attribute holding the address (SAML: default the NameID when it is an address, else `email`/`mail`; OIDC: `email`). */
  email?: string
  /** The attribute holding the name (SAML: `displayName`/`name`; OIDC: `name`). */
  name?: string
  /** The attribute holding the groups. */
  groups?: string
  /** Group -> role in the organization (the first group that maps wins; none: the default role). */
  roles?: Record<string, string>
}

export interface AdapterSsoConnection {
  /** Made by Gatehouse (unique; part of the connection's URLs). */
  id: string
  organizationId: string
  type: "saml" | "oidc"
  /** What the organization's admins call it ("Okta"). */
  name: string
  enabled: boolean
  settings: SamlSettings | OidcSettings
  mapping?: SsoMapping | null
  createdAt: Date
  updatedAt: Date
}

export type SsoConnectionUpdate = Partial<Pick<AdapterSsoConnection, "name" | "enabled" | "settings" | "mapping" | "updatedAt">>

/** An email domain an organization claims; it routes and proves addresses only once verified. */
export interface AdapterDomain {
  organizationId: string
  /** Lower-case, without a trailing dot. */
  domain: string
  /** The value of the DNS TXT record the organization is asked to publish. */
  token: string
  verifiedAt: Date | null
  /** Members with an address at this domain sign in only through the organization's SSO (owners excepted). */
  enforceSso: boolean
  createdAt: Date
}

/** The answer of a domain change that another organization's verified domain forbids: nothing was changed. */
export const DOMAIN_TAKEN = "domainTaken"

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (enterprise sign-in): stores a connection. */
    createSsoConnection?(connection: AdapterSsoConnection): Awaitable<AdapterSsoConnection>
    /** Gatehouse extension: the connection, or null. */
    getSsoConnection?(id: string): Awaitable<AdapterSsoConnection | null>
    /** Gatehouse extension: the organization's connections, oldest first. */
    listSsoConnections?(organizationId: string): Awaitable<AdapterSsoConnection[]>
    /** Gatehouse extension: applies `changes`; null when there is no such connection. */
    updateSsoConnection?(id: string, changes: SsoConnectionUpdate): Awaitable<AdapterSsoConnection | null>
    /** Gatehouse extension: deletes the connection. */
    deleteSsoConnection?(id: string): Awaitable<void>
    /** Gatehouse extension: the organization claims a domain (unverified). `"domainTaken"` when it claimed it already or another organization verified it. */
    createDomain?(domain: AdapterDomain): Awaitable<AdapterDomain | typeof DOMAIN_TAKEN>
    /** Gatehouse extension: the organization's claim of the domain, or null. */
    getDomain?(organizationId: string, domain: string): Awaitable<AdapterDomain | null>
    /** Gatehouse extension: the verified claim of the domain (whichever organization holds it), or null. */
    getVerifiedDomain?(domain: string): Awaitable<AdapterDomain | null>
    /** Gatehouse extension: the organization's domains, oldest first. */
    listDomains?(organizationId: string): Awaitable<AdapterDomain[]>
    /** Gatehouse extension, atomic: marks the organization's claim verified; `"domainTaken"` (nothing changed) when another organization verified the domain; null when there is no such claim. */
    verifyDomain?(organizationId: string, domain: string, verifiedAt: Date): Awaitable<AdapterDomain | typeof DOMAIN_TAKEN | null>
    /** Gatehouse extension: sets `enforceSso`; null when there is no such claim. */
    updateDomain?(organizationId: string, domain: string, changes: Pick<AdapterDomain, "enforceSso">): Awaitable<AdapterDomain | null>
    /** Gatehouse extension: removes the organization's claim. */
    deleteDomain?(organizationId: string, domain: string): Awaitable<void>
  }
}

export const SSO_ADAPTER_METHODS = [
  "createSsoConnection",
  "getSsoConnection",
  "listSsoConnections",
  "updateSsoConnection",
  "deleteSsoConnection",
  "createDomain",
  "getDomain",
  "getVerifiedDomain",
  "listDomains",
  "verifyDomain",
  "updateDomain",
  "deleteDomain",
] as const
