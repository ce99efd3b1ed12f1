/**
 * Harness for the OIDC connection suites (not a test file): a real `oidc-provider` IdP on
 * 127.0.0.1 (the shared helper, with a `groups` scope), and a Gatehouse app with organizations,
 * `sso: true` and the memory adapter, holding an organization ("Acme", owned by a stored user), an
 * OIDC connection to the IdP stored through the adapter with its client secret sealed, and the
 * domain acme.test claimed and verified. Helpers drive a sign-in as a browser would: the CSRF
 * token, `POST /auth/sso` with the address, the IdP's redirects, the callback.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import type { Adapter, AdapterSsoConnection } from "../../../lib/adapters.js"
import type { AuthConfig } from "../../../lib/types.js"
import type { SsoMapping } from "../../../lib/sso/adapter.js"
import { sealSecret } from "../../../lib/sso/secret.js"
import { SECRET, csrfToken, makeApp, request, reserve, testConfig, type Agent } from "../../helpers/app.js"
import { startIdp, type IdpAccount, type TestIdp } from "../../helpers/idp.js"

export const CLIENT_ID = "acme-gatehouse"
export const CLIENT_SECRET = "acme-client-secret-5b8d2f1a9c3e4d7b6a0f1e2d3c4b5a69"
export const CONNECTION_ID = "acme-oidc"
export const ORG_ID = "org-acme"
export const DOMAIN = "acme.test"
/** A second connection of the organization to the same IdP client (its redirect URI registered too). */
export const SECOND_CONNECTION_ID = "acme-second"

export const ACCOUNTS: Record<string, IdpAccount> = {
  carol: { email: "Carol@Acme.test", email_verified: true, name: "Carol Danvers" },
  dave: { email: "dave@acme.test", email_verified: true, name: "Dave Admin", groups: ["engineering", "acme-admins"] },
  erin: { email: "erin@acme.test", email_verified: true, name: "Erin Teams", groups: ["engineering"], teams: ["acme-admins"] },
}

export interface OidcSite {
  url: string
  idp: TestIdp
  adapter: Adapter
  config: AuthConfig
  audits: Array<Record<string, unknown>>
  /** A browser at the app (keeps cookies). */
  agent(): Agent
  /** The connection's redirect URI (`<url>/auth/sso/oidc/<id>/callback`). */
  redirectUri(id?: string): string
  close(): Promise<void>
}

export interface OidcSiteOptions {
  /** Extra scopes stored on the connection. */
  scopes?: string[]
  mapping?: SsoMapping
}

const open: OidcSite[] = []

/** For a test file: quiets oidc-provider's development warnings and closes every site after each test. */
export function oidcSuite(): void {
  beforeAll(() => {
    jest.spyOn(console, "warn").mockImplementation(() => undefined)
    jest.spyOn(console, "info").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    while (open.length) await open.pop()!.close()
  })
  afterAll(() => jest.restoreAllMocks())
}

/** An OIDC connection record for the IdP (secret sealed as Gatehouse stores it). */
export async function oidcConnection(idp: TestIdp, overrides: Partial<AdapterSsoConnection> & { scopes?: string[] } = {}): Promise<AdapterSsoConnection> {
  const { scopes, ...rest } = overrides
  const now = new Date()
  return {
    id: CONNECTION_ID,
    organizationId: ORG_ID,
    type: "oidc",
    name: "Acme IdP",
    enabled: true,
    settings: { issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: await sealSecret({ secrets: [SECRET] }, CLIENT_SECRET), ...(scopes && { scopes }) },
    mapping: null,
    createdAt: now,
    updatedAt: now,
    ...rest,
  }
}

export async function startOidcSite(options: OidcSiteOptions = {}): Promise<OidcSite> {
  const reserved = await reserve()
  const redirectUri = (id = CONNECTION_ID) => `${reserved.url}/auth/sso/oidc/${id}/callback`
  const idp = await startIdp({
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri(), redirectUri(SECOND_CONNECTION_ID)],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    accounts: ACCOUNTS,
    configuration: {
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"], groups: ["groups", "teams"] },
      // The IdP insists on PKCE, as the OAuth 2.1 ones do: a sign-in without it would fail.
      pkce: { required: () => true },
    },
  })
  const adapter = MemoryAdapter()
  const audits: Array<Record<string, unknown>> = []
  const config = testConfig({
    adapter,
    organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
    sso: true,
    events: { audit: (record) => void audits.push(record as Record<string, unknown>) },
  } as Partial<AuthConfig>)
  const owner = await adapter.createUser!({ id: "user-owner", email: "owner@elsewhere.test", emailVerified: new Date(), name: "Olive Owner" } as never)
  const now = new Date()
  await adapter.createOrganization!({ id: ORG_ID, slug: "acme", name: "Acme", createdAt: now }, { organizationId: ORG_ID, userId: owner.id, role: "owner", createdAt: now })
  await adapter.createSsoConnection!(await oidcConnection(idp, { scopes: options.scopes, mapping: options.mapping ?? null }))
  await adapter.createDomain!({ organizationId: ORG_ID, domain: DOMAIN, token: "gatehouse-proof-token", verifiedAt: null, enforceSso: false, createdAt: now })
  await adapter.verifyDomain!(ORG_ID, DOMAIN, now)
  reserved.attach(makeApp(config))
  const site: OidcSite = {
    url: reserved.url,
    idp,
    adapter,
    config,
    audits,
    agent: () => request.agent(reserved.url) as Agent,
    redirectUri,
    close: async () => {
      await reserved.close()
      await idp.close()
    },
  }
  open.push(site)
  return site
}

/** `POST /auth/sso` with the address (and the CSRF token): the app's redirect to the IdP. */
export async function startSso(agent: Agent, identifier: string) {
  const token = await csrfToken(agent)
  return agent.post("/auth/sso").type("form").send({ csrfToken: token, identifier })
}

/** The browser at the IdP, signed in there as `login`: the URL the IdP sends it back to. */
export async function atIdp(site: OidcSite, start: { status: number; headers: Record<string, unknown> }, login: string): Promise<URL> {
  expect(start.status).toBe(302)
  site.idp.nextLogin = login
  return site.idp.browse(String(start.headers.location), site.redirectUri())
}

/** The path and query to request on the app for a URL. */
export function local(url: URL): string {
  return url.pathname + url.search
}

/** Where a redirect goes, relative to the site. */
export function location(site: OidcSite, response: { headers: Record<string, unknown> }): URL {
  return new URL(String(response.headers.location), site.url)
}
