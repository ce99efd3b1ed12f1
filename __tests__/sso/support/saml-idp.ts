/**
 * A real SAML 2.0 identity provider in the test process (not a test file), built on `samlp` (v8,
 * with `saml`): keys and certificates made at test time with `selfsigned`; `GET /sso` takes our
 * AuthnRequest (HTTP-Redirect binding; with `requireSignedRequests` samlp itself checks the
 * request's Signature against the SP certificate) and answers with the HTML form of the POST
 * binding: a Response whose assertion the IdP signs (RSA-SHA256), addressed to the ACS URL
 * (`Destination`, `Recipient`), answering the request (`InResponseTo`) unless IdP-initiated.
 * `logoutRequestUrl` makes a signed LogoutRequest of the redirect binding, as an IdP starting
 * single logout does.
 */
import { createSign, randomUUID } from "node:crypto"
import { deflateRawSync } from "node:zlib"
import express, { type Express } from "express"
import { generate } from "selfsigned"
// @ts-expect-error samlp ships no types
import samlp from "samlp"

export interface KeyPair {
  key: string
  cert: string
}

export async function keyPair(commonName: string): Promise<KeyPair> {
  const pems = await generate([{ name: "commonName", value: commonName }], { keySize: 2048, algorithm: "sha256" })
  return { key: pems.private, cert: pems.cert }
}

/** The base64 body of a PEM certificate, as a connection stores it. */
export function certBody(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")
}

export interface IdpUser {
  email: string
  name: string
  groups?: string[]
}

export interface IdpOptions {
  entityId: string
  /** Signs assertions. */
  signing: KeyPair
  /** The SP's ACS URL (Destination, Recipient) and entity id (Audience). */
  acsUrl: string
  audience: string
  /** The user the IdP says signed in. */
  user: () => IdpUser
  /** The SP certificate: AuthnRequests must be signed with it. */
  requireSignedRequests?: string
}

export interface SamlIdp {
  app: Express
  options: IdpOptions
  /** The AuthnRequests the IdP accepted (their ids). */
  requests: string[]
}

function profileMapper(user: IdpUser) {
  return {
    getClaims: () => ({
      email: user.email,
      displayName: user.name,
      ...(user.groups ? { groups: user.groups } : {}),
    }),
    getNameIdentifier: () => ({ nameIdentifier: user.email, nameIdentifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" }),
  }
}

function samlpOptions(options: IdpOptions, extra: Record<string, unknown> = {}) {
  return {
    issuer: options.entityId,
    cert: options.signing.cert,
    key: options.signing.key,
    audience: options.audience,
    destination: options.acsUrl,
    recipient: options.acsUrl,
    signatureAlgorithm: "rsa-sha256",
    digestAlgorithm: "sha256",
    lifetimeInSeconds: 300,
    sessionIndex: `_session-${randomUUID()}`,
    profileMapper: () => profileMapper(options.user()),
    getUserFromRequest: () => options.user(),
    getPostURL: (_audience: unknown, _request: unknown, _req: unknown, done: (error: unknown, url?: string) => void) => done(null, options.acsUrl),
    ...extra,
  }
}

export function samlIdp(options: IdpOptions): SamlIdp {
  const app = express()
  const requests: string[] = []
  app.get("/sso", (req, res, next) => {
    samlp.parseRequest(req, options.requireSignedRequests ? { signingCert: options.requireSignedRequests } : {}, (error: Error | null, data: { id?: string } | undefined) => {
      if (error) return res.status(400).send(`refused: ${error.message}`)
      if (data?.id) requests.push(data.id)
      samlp.auth(samlpOptions(options, options.requireSignedRequests ? { signingCert: options.requireSignedRequests } : {}))(req, res, next)
    })
  })
  return { app, options, requests }
}

/** An IdP-initiated answer (no AuthnRequest, no InResponseTo): the base64 SAMLResponse. */
export async function unsolicitedResponse(options: IdpOptions): Promise<string> {
  const xml = await new Promise<string>((resolve, reject) => {
    samlp.getSamlResponse(samlpOptions(options), options.user(), (error: Error | null, response: string) => (error ? reject(error) : resolve(response)))
  })
  return Buffer.from(xml).toString("base64")
}

/** The hidden fields of the IdP's auto-posting form (SAMLResponse, RelayState). */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[match[1]!] = match[2]!.replace(/&#x2F;/g, "/").replace(/&#x3D;/g, "=").replace(/&#x2B;/g, "+").replace(/&amp;/g, "&").replace(/&quot;/g, '"')
  return fields
}

/** A LogoutRequest from the IdP for `nameId` (HTTP-Redirect binding, the query signed with the IdP's key): the URL's query. */
export function logoutRequestQuery(options: { entityId: string; signing: KeyPair; destination: string; nameId: string; sessionIndex?: string; relayState?: string }): string {
  const instant = new Date().toISOString()
  const xml =
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${instant}" Destination="${options.destination}">` +
    `<saml:Issuer>${options.entityId}</saml:Issuer>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.nameId}</saml:NameID>` +
    (options.sessionIndex ? `<samlp:SessionIndex>${options.sessionIndex}</samlp:SessionIndex>` : "") +
    `</samlp:LogoutRequest>`
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString("base64"))}`
  if (options.relayState) query += `&RelayState=${encodeURIComponent(options.relayState)}`
  query += `&SigAlg=${encodeURIComponent("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")}`
  const signature = createSign("RSA-SHA256").update(query).sign(options.signing.key, "base64")
  return `${query}&Signature=${encodeURIComponent(signature)}`
}
