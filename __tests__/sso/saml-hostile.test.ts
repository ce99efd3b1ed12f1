/**
 * The hostile suite against the SAML assertion consumer (issue #28, "Security bounds"): every
 * crafted response is refused. An app with the memory adapter, organizations and `sso`; the
 * organization Acme has verified `acme.example` and a SAML connection pinned to the test IdP's
 * certificate (made at test time). Responses are forged by __tests__/sso/support/saml-forge.ts,
 * each answering a real AuthnRequest of ours (started through `POST /auth/sso`), so that a
 * refusal is the shape's and not a missing request's.
 *
 * The controls come first (a valid signed response is accepted and signs in: the suite can fail);
 * then each shape is posted twice, on fresh sign-ins: as an API client (Accept: application/json:
 * the status and the error type) and as a browser (Accept: text/html: a 4xx HTML page, never JSON
 * or a 500). After each: no session cookie, no session, no user created, no account linked.
 *
 * Mallory (mallory@acme.example) is a real employee with a real IdP account; the attacks try to
 * turn her validly signed response into a sign-in as the CEO (ceo@acme.example, a stored user).
 */
import { beforeAll, describe, expect, test } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession } from "../../lib/index.js"
import { MemoryStore } from "../../lib/shared-store/memory.js"
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { AdapterSsoConnection } from "../../lib/sso/adapter.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, credentials, request, setCookies, type Agent } from "../helpers/app.js"
import {
  XSW,
  XSW_SIGNS,
  billionLaughs,
  buildResponse,
  commentInNameId,
  encode,
  forge,
  makeIdp,
  newId,
  readAuthnRequest,
  unsignedBeside,
  verifiedIds,
  withDoctype,
  type AuthnRequestSeen,
  type ResponseFields,
  type SignWhere,
  type TestIdp,
} from "./support/saml-forge.js"

const HOST = "app.test"
const IDP_ENTITY = "https://idp.acme.example/saml"
const IDP_SSO_URL = "https://idp.acme.example/saml/sso"
const MAX_RESPONSE_SIZE = 65_536
const MALLORY = "mallory@acme.example"
const CEO = "ceo@acme.example"
const EVIL = { nameId: CEO }
const SESSION_COOKIE = "authjs.session-token"

interface Fixture {
  apps: Express[]
  adapter: Adapter
  store: MemoryStore
  createdUsers: AdapterUser[]
  errors: string[]
  connection: AdapterSsoConnection
  idpInitiated: AdapterSsoConnection
}

let idp: TestIdp
let otherIdp: TestIdp
let t: Fixture

/** One app ("process"): router and authSession on the shared adapter and store. */
function appOf(adapter: Adapter, store: MemoryStore, errors: string[]): Express {
  const config = {
    secret: SECRET,
    providers: [credentials()],
    logLevel: "silent",
    adapter,
    store,
    organizations: true,
    sso: { saml: { maxResponseSize: MAX_RESPONSE_SIZE } },
    logger: {
      error: (error: Error) => {
        errors.push(`${error.name}: ${error.message}`)
      },
    },
  } as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/me", (req, res) => {
    res.json({ auth: req.auth ?? null })
  })
  return app
}

async function connectionFor(adapter: Adapter, organizationId: string, allowIdpInitiated: boolean): Promise<AdapterSsoConnection> {
  const now = new Date()
  return adapter.createSsoConnection!({
    id: `conn-${newId().slice(1, 13)}`,
    organizationId,
    type: "saml",
    name: "Acme IdP",
    enabled: true,
    settings: { entityId: IDP_ENTITY, ssoUrl: IDP_SSO_URL, certificates: [idp.cert], allowIdpInitiated },
    mapping: null,
    createdAt: now,
    updatedAt: now,
  })
}

async function organizationWithDomain(adapter: Adapter, owner: AdapterUser, slug: string, domain: string): Promise<string> {
  const id = `org-${slug}`
  const created = await adapter.createOrganization!({ id, slug, name: slug, createdAt: new Date() }, { organizationId: id, userId: owner.id, role: "owner", createdAt: new Date() })
  if (typeof created === "string") throw new Error(`organization ${slug}: ${created}`)
  const claimed = await adapter.createDomain!({ organizationId: id, domain, token: newId(), verifiedAt: null, enforceSso: false, createdAt: new Date() })
  if (typeof claimed === "string") throw new Error(`domain ${domain}: ${claimed}`)
  const verified = await adapter.verifyDomain!(id, domain, new Date())
  if (!verified || typeof verified === "string") throw new Error(`domain ${domain} not verified: ${String(verified)}`)
  return id
}

beforeAll(async () => {
  ;[idp, otherIdp] = await Promise.all([makeIdp(IDP_ENTITY), makeIdp(IDP_ENTITY)])
  const adapter = MemoryAdapter()
  const createdUsers: AdapterUser[] = []
  const createUser = adapter.createUser!.bind(adapter)
  adapter.createUser = async (user) => {
    const created = await createUser(user)
    createdUsers.push(created)
    return created
  }
  const store = new MemoryStore()
  const errors: string[] = []
  const owner = await createUser({ id: "u-owner", email: "owner@acme.example", name: "Owner", emailVerified: new Date() })
  await createUser({ id: "u-ceo", email: CEO, name: "CEO", emailVerified: new Date() })
  const acme = await organizationWithDomain(adapter, owner, "acme", "acme.example")
  const beta = await organizationWithDomain(adapter, owner, "beta", "beta.example")
  t = {
    apps: [appOf(adapter, store, errors), appOf(adapter, store, errors)],
    adapter,
    store,
    createdUsers,
    errors,
    connection: await connectionFor(adapter, acme, false),
    idpInitiated: await connectionFor(adapter, beta, true),
  }
})

// ---- The flow --------------------------------------------------------------------------------

const agentOf = (app: Express): Agent => request.agent(app).set("Host", HOST) as Agent

/** A browser starts "Sign in with SSO" for `identifier` on `app`: the AuthnRequest it is sent to the IdP with. */
async function startSignIn(app: Express, identifier = MALLORY): Promise<{ agent: Agent; request: AuthnRequestSeen }> {
  const agent = agentOf(app)
  const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  const started = await agent.post("/auth/sso").type("form").send({ csrfToken: csrf, identifier, callbackUrl: "/me" })
  expect(started.status).toBe(302)
  const location = String(started.headers.location)
  expect(location.startsWith(IDP_SSO_URL)).toBe(true)
  const seen = readAuthnRequest(location)
  expect(seen.id).toMatch(/\S/)
  expect(seen.relayState).toMatch(/\S/)
  return { agent, request: seen }
}

/** What a real IdP answers to `seen`: Mallory, to our ACS and entity id. */
function fieldsFor(seen: AuthnRequestSeen, connection: AdapterSsoConnection = t.connection): ResponseFields {
  const acs = seen.acsUrl ?? `http://${HOST}/auth/sso/saml/${connection.id}/acs`
  return { issuer: IDP_ENTITY, destination: acs, recipient: acs, audience: seen.issuer, inResponseTo: seen.id, nameId: MALLORY, groups: ["staff"] }
}

const acsPath = (connection: AdapterSsoConnection = t.connection) => `/auth/sso/saml/${connection.id}/acs`

type Accept = "json" | "html"

async function postAcs(agent: Agent, xml: string, relayState: string | null, accept: Accept, connection = t.connection) {
  const form: Record<string, string> = { SAMLResponse: encode(xml) }
  if (relayState !== null) form.RelayState = relayState
  return agent
    .post(acsPath(connection))
    .set("Accept", accept === "json" ? "application/json" : "text/html,application/xhtml+xml")
    .type("form")
    .send(form)
}

function sessionCookieSet(response: { headers: Record<string, unknown> }): boolean {
  return setCookies(response).some((cookie) => cookie.name.startsWith(SESSION_COOKIE) && cookie.value !== "")
}

/** Who the agent is signed in as (null: nobody). */
async function signedInAs(agent: Agent): Promise<string | null> {
  const me = await agent.get("/me").set("Accept", "application/json")
  return (me.body?.auth?.user?.email as string | undefined) ?? null
}

/** Nothing was stored: no new user, and no account of either connection linked to the CEO's identity. */
async function nothingStored(before: number): Promise<void> {
  expect(t.createdUsers.slice(before).map((user) => user.email)).toEqual([])
  for (const connection of [t.connection, t.idpInitiated]) {
    expect(await t.adapter.getUserByAccount!({ provider: `sso-${connection.id}`, providerAccountId: CEO })).toBeNull()
  }
}

/** An accepted answer: the browser is sent on (or a JSON client told where), with a session cookie. */
function expectAccepted(answer: { status: number; headers: Record<string, unknown> }): void {
  expect([200, 302, 303]).toContain(answer.status)
  expect(sessionCookieSet(answer)).toBe(true)
}

/** A crafted response for a fresh sign-in: the attack `make` builds from that sign-in's AuthnRequest. */
type Make = (seen: AuthnRequestSeen) => { xml: string; relayState?: string | null }

/**
 * Posts `make`'s response twice (fresh sign-ins): as JSON (status 400, `type`) and as a browser (a
 * 4xx HTML page naming `type`). Neither signs anyone in or stores anything.
 */
async function expectRefused(make: Make, type: "SsoResponseInvalid" | "SsoReplay" | "SsoUnsolicited", options: { app?: Express; connection?: AdapterSsoConnection } = {}): Promise<void> {
  const app = options.app ?? t.apps[0]!
  for (const accept of ["json", "html"] as const) {
    const before = t.createdUsers.length
    const { agent, request: seen } = await startSignIn(app)
    const built = make(seen)
    const answer = await postAcs(agent, built.xml, built.relayState === undefined ? seen.relayState : built.relayState, accept, options.connection)
    expect(sessionCookieSet(answer)).toBe(false)
    if (accept === "json") {
      expect({ status: answer.status, type: answer.body?.error?.type }).toEqual({ status: 400, type })
    } else {
      await expectRefusalPage(agent, answer, type)
    }
    expect(await signedInAs(agent)).toBeNull()
    await nothingStored(before)
  }
}

/** A browser's refusal: a 4xx HTML page (directly, or the error page the answer redirects to) naming the refusal. */
async function expectRefusalPage(agent: Agent, answer: Awaited<ReturnType<typeof postAcs>>, type: string): Promise<void> {
  expect(answer.status).not.toBe(500)
  let page = answer
  if (answer.status === 302 || answer.status === 303) {
    const location = new URL(String(answer.headers.location), `http://${HOST}`)
    expect(location.searchParams.get("error")).toBe(type)
    expect(location.host).toBe(HOST)
    page = await agent.get(location.pathname + location.search).set("Accept", "text/html")
  }
  expect(page.status).toBeGreaterThanOrEqual(400)
  expect(page.status).toBeLessThan(500)
  expect(String(page.headers["content-type"])).toMatch(/text\/html/)
  expect(page.text).toMatch(/<html/i)
  expect(page.text.trimStart().startsWith("{")).toBe(false)
}

/** A valid response to `seen`, signed where asked. */
const valid = (seen: AuthnRequestSeen, where: SignWhere = "assertion", extra: Partial<ResponseFields> = {}) => forge({ ...fieldsFor(seen), ...extra }, idp, where)

// ---- The forge itself ------------------------------------------------------------------------

describe("the forge", () => {
  test("signs as a real IdP does, and each wrapping shape still carries a signature that verifies with the pinned key", () => {
    const seen: AuthnRequestSeen = { id: "_req", issuer: "http://app.test/sp", acsUrl: "http://app.test/acs", destination: null, relayState: null }
    const assertionSigned = valid(seen, "assertion")
    const responseSigned = valid(seen, "response")
    expect(verifiedIds(assertionSigned, idp.cert)).toHaveLength(1)
    expect(verifiedIds(valid(seen, "both"), idp.cert)).toHaveLength(2)
    expect(assertionSigned).toContain("<ds:X509Certificate>")
    // Another key does not verify under the pinned certificate.
    expect(() => verifiedIds(forge(fieldsFor(seen), otherIdp), idp.cert)).toThrow()
    for (const [name, wrap] of Object.entries(XSW)) {
      const wrapped = wrap(XSW_SIGNS[name as keyof typeof XSW] === "response" ? responseSigned : assertionSigned, EVIL)
      expect({ name, evil: wrapped.includes(`>${CEO}<`) }).toEqual({ name, evil: true })
      // XSW7 and XSW8 keep the signed ID twice: xml-crypto itself refuses such a document.
      if (name === "XSW7" || name === "XSW8") expect(() => verifiedIds(wrapped, idp.cert)).toThrow(/same value for the ID/)
      else expect({ name, ids: verifiedIds(wrapped, idp.cert).length }).toEqual({ name, ids: 1 })
    }
    const commented = commentInNameId(forge({ ...fieldsFor(seen), nameId: `${CEO}.evil.test` }, idp), CEO.length)
    expect(commented).toContain(`${CEO}<!---->.evil.test`)
    expect(verifiedIds(commented, idp.cert)).toHaveLength(1)
  })
})

// ---- Controls -----------------------------------------------------------------------------------

describe("controls: a valid response is accepted (the suite can fail)", () => {
  test.each(["assertion", "both"] as const)("a response to our AuthnRequest, %s signed, signs Mallory in", async (where) => {
    const { agent, request: seen } = await startSignIn(t.apps[0]!)
    const answer = await postAcs(agent, valid(seen, where), seen.relayState, "html")
    expect(answer.status).toBe(302)
    expect(String(answer.headers.location)).toMatch(/\/me$/)
    expect(sessionCookieSet(answer)).toBe(true)
    expect(await signedInAs(agent)).toBe(MALLORY)
    expect(await t.adapter.getUserByAccount!({ provider: `sso-${t.connection.id}`, providerAccountId: MALLORY })).toMatchObject({ email: MALLORY })
  })
})

// The control signed Mallory in and linked her account: from here on she exists, and the checks
// are that nothing else is created and no account of the CEO is linked.
async function nothingForCeo(): Promise<void> {
  expect(await t.adapter.getUserByAccount!({ provider: `sso-${t.connection.id}`, providerAccountId: CEO })).toBeNull()
  const ceo = await t.adapter.getUserByEmail!(CEO)
  expect(ceo?.id).toBe("u-ceo")
}

// ---- Refusals -----------------------------------------------------------------------------------

describe("signature wrapping (Somorovsky et al. XSW1-XSW8)", () => {
  const cases = Object.keys(XSW) as Array<keyof typeof XSW>
  test.each(cases)("%s is refused (SsoResponseInvalid) and nobody is signed in as the CEO", async (name) => {
    await expectRefused((seen) => ({ xml: XSW[name](valid(seen, XSW_SIGNS[name]), EVIL) }), "SsoResponseInvalid")
    await nothingForCeo()
  })
})

describe("identity and signature shapes", () => {
  test("a comment inside NameID does not truncate the identity: refused, never the CEO", async () => {
    // Mallory's IdP account is ceo@acme.example.evil.test; the comment after "ceo@acme.example"
    // leaves the signature valid (c14n drops comments).
    await expectRefused((seen) => ({ xml: commentInNameId(valid(seen, "assertion", { nameId: `${CEO}.evil.test` }), CEO.length) }), "SsoResponseInvalid")
    await nothingForCeo()
  })

  test("an unsigned assertion beside a signed one (before it, or after it) is refused", async () => {
    for (const where of ["before", "after"] as const) {
      await expectRefused((seen) => ({ xml: unsignedBeside(valid(seen), { ...fieldsFor(seen), ...EVIL }, where) }), "SsoResponseInvalid")
    }
    await nothingForCeo()
  })

  test("a signed response around an unsigned assertion is refused (the assertion itself must be signed)", async () => {
    await expectRefused((seen) => ({ xml: valid(seen, "response", EVIL) }), "SsoResponseInvalid")
    await nothingForCeo()
  })

  test("a response signed by another IdP's key, its certificate in KeyInfo, is refused: the certificate is pinned", async () => {
    await expectRefused((seen) => ({ xml: forge({ ...fieldsFor(seen), ...EVIL }, otherIdp, "both") }), "SsoResponseInvalid")
    await nothingForCeo()
  })

  test("an unsigned response is refused", async () => {
    await expectRefused((seen) => ({ xml: buildResponse({ ...fieldsFor(seen), ...EVIL }) }), "SsoResponseInvalid")
  })
})

describe("conditions", () => {
  const minutes = (n: number) => new Date(Date.now() + n * 60_000)
  test.each<[string, (seen: AuthnRequestSeen) => Partial<ResponseFields>]>([
    ["wrong Audience", () => ({ audience: "https://other-sp.example/metadata" })],
    ["wrong Destination", () => ({ destination: "https://other-sp.example/acs" })],
    ["wrong Recipient", () => ({ recipient: "https://other-sp.example/acs" })],
    ["expired (NotOnOrAfter 5 minutes ago, issued 20 minutes ago)", () => ({ now: minutes(-20), notBefore: minutes(-21), notOnOrAfter: minutes(-5) })],
    ["not yet valid (NotBefore in 5 minutes)", () => ({ notBefore: minutes(5), notOnOrAfter: minutes(10) })],
  ])("%s is refused", async (_name, change) => {
    await expectRefused((seen) => ({ xml: valid(seen, "assertion", change(seen)) }), "SsoResponseInvalid")
  })
})

describe("replay", () => {
  test("the same valid response posted twice: the second is refused (SsoReplay)", async () => {
    const { agent, request: seen } = await startSignIn(t.apps[0]!)
    const xml = valid(seen)
    expectAccepted(await postAcs(agent, xml, seen.relayState, "html"))
    for (const accept of ["json", "html"] as const) {
      const before = t.createdUsers.length
      const attacker = agentOf(t.apps[0]!)
      const again = await postAcs(attacker, xml, seen.relayState, accept)
      expect(sessionCookieSet(again)).toBe(false)
      if (accept === "json") expect({ status: again.status, type: again.body?.error?.type }).toEqual({ status: 400, type: "SsoReplay" })
      else await expectRefusalPage(attacker, again, "SsoReplay")
      expect(await signedInAs(attacker)).toBeNull()
      await nothingStored(before)
    }
  })

  test("replayed on another process sharing the store: accepted on B for a request made on A, then refused on A and on B", async () => {
    const [a, b] = t.apps as [Express, Express]
    const { request: seen } = await startSignIn(a)
    const xml = valid(seen)
    // B recognises A's request (the request id is in the shared store): the control.
    const onB = agentOf(b)
    expectAccepted(await postAcs(onB, xml, seen.relayState, "html"))
    expect(await signedInAs(onB)).toBe(MALLORY)
    for (const app of [a, b]) {
      const attacker = agentOf(app)
      const again = await postAcs(attacker, xml, seen.relayState, "json")
      expect({ status: again.status, type: again.body?.error?.type }).toEqual({ status: 400, type: "SsoReplay" })
      expect(sessionCookieSet(again)).toBe(false)
      expect(await signedInAs(attacker)).toBeNull()
    }
  })

  test("an assertion used once is refused when wrapped in a new response (same assertion ID)", async () => {
    const { agent, request: seen } = await startSignIn(t.apps[0]!)
    const assertionId = newId()
    expectAccepted(await postAcs(agent, valid(seen, "assertion", { assertionId }), seen.relayState, "html"))
    // A second sign-in's request answered with the same assertion ID (a new response around it).
    await expectRefused((next) => ({ xml: valid(next, "assertion", { assertionId }) }), "SsoReplay")
  })
})

describe("unsolicited (IdP-initiated)", () => {
  const unsolicited = (connection: AdapterSsoConnection, nameId: string) => {
    const acs = `http://${HOST}${acsPath(connection)}`
    return forge({ issuer: IDP_ENTITY, destination: acs, recipient: acs, audience: `http://${HOST}/auth/sso/saml/${connection.id}/metadata`, nameId }, idp)
  }

  test("no InResponseTo while IdP-initiated sign-in is off: SsoUnsolicited", async () => {
    await expectRefused(() => ({ xml: unsolicited(t.connection, MALLORY), relayState: null }), "SsoUnsolicited")
  })

  test("the same with IdP-initiated sign-in on is accepted (control)", async () => {
    const agent = agentOf(t.apps[0]!)
    expectAccepted(await postAcs(agent, unsolicited(t.idpInitiated, "someone@beta.example"), null, "html", t.idpInitiated))
    expect(await signedInAs(agent)).toBe("someone@beta.example")
  })

  test("an IdP-initiated RelayState naming another site does not send the browser there", async () => {
    const agent = agentOf(t.apps[0]!)
    const answer = await postAcs(agent, unsolicited(t.idpInitiated, "other@beta.example"), "https://evil.example/steal", "html", t.idpInitiated)
    expectAccepted(answer)
    expect(new URL(String(answer.headers.location), `http://${HOST}`).host).toBe(HOST)
  })
})

describe("size and document type", () => {
  test("a response over sso.saml.maxResponseSize is refused before parsing", async () => {
    const before = t.errors.length
    await expectRefused((seen) => ({ xml: valid(seen, "assertion", { padding: MAX_RESPONSE_SIZE }) }), "SsoResponseInvalid")
    // The reason logged is the size, not a later check.
    expect(t.errors.slice(before).join("\n")).toMatch(/over 65536 characters/)
  })

  test.each<[string, string, string | undefined]>([
    ["a DOCTYPE with an internal entity", `<!ENTITY who "${CEO}">`, "&who;"],
    ["billion laughs", billionLaughs(), "&lol9;"],
    ["an external entity (SYSTEM file:///etc/passwd)", `<!ENTITY xxe SYSTEM "file:///etc/passwd">`, "&xxe;"],
    ["a bare DOCTYPE", "", undefined],
  ])("%s is refused", async (_name, subset, use) => {
    await expectRefused((seen) => ({ xml: withDoctype(valid(seen), subset, use) }), "SsoResponseInvalid")
  })
})
