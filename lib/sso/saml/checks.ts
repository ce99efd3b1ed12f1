/**
 * Gatehouse's own checks of a SAML message (issue #28), around node-saml's signature and condition
 * checks (which are never re-done here):
 * - before: a size limit on the base64 before decoding; no document type declaration or entity
 *   (before any parser sees the text); a well-formed document whose root is a SAML Response with
 *   exactly one Assertion in the whole document (a second one anywhere, signed or not, is a
 *   wrapping attempt), a direct child of the Response, and no EncryptedAssertion (decryption is
 *   not supported: the SP publishes no encryption key); no comment inside a NameID or an
 *   AttributeValue; `Destination`, when present, equal to the ACS URL; an answer to no request
 *   while the connection refuses IdP-initiated sign-in is `SsoUnsolicited`;
 * - after: only node-saml's profile (read from the signed element) is used; its Issuer is the
 *   connection's identity provider (node-saml checks only logout messages' issuers); every
 *   SubjectConfirmationData of the signed assertion names the ACS URL as `Recipient`; the signed
 *   assertion has an ID and an expiry, and its ID is claimed in the shared store until it expires
 *   (a second use, in this process or another, is `SsoReplay`).
 * Each refusal is `SsoResponseInvalid` (or the named error above) with its reason for the log.
 */
import { DOMParser } from "@xmldom/xmldom"
import type { Profile } from "@node-saml/node-saml"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import { SsoReplay, SsoResponseInvalid, SsoUnsolicited } from "../errors.js"
import { MAX_ASSERTION_AGE_MS } from "./instance.js"

export const PROTOCOL_NS = "urn:oasis:names:tc:SAML:2.0:protocol"
export const ASSERTION_NS = "urn:oasis:names:tc:SAML:2.0:assertion"

const BASE64 = /^[A-Za-z0-9+/\r\n\t ]*={0,2}[\r\n\t ]*$/
const DECLARATION = /<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i

/** The decoded text of a base64 SAML message, after the size limit and the declaration check. */
export function decodeMessage(encoded: unknown, maxSize: number): string {
  if (typeof encoded !== "string" || !encoded) throw new SsoResponseInvalid("The SAML message is missing")
  if (encoded.length > maxSize) throw new SsoResponseInvalid(`The SAML message is over ${maxSize} characters of base64`)
  if (!BASE64.test(encoded)) throw new SsoResponseInvalid("The SAML message is not base64")
  const xml = Buffer.from(encoded, "base64").toString("utf8")
  refuseDeclarations(xml)
  return xml
}

/** No DTD, entity or other markup declaration anywhere (BOM and whitespace included). */
export function refuseDeclarations(xml: string): void {
  if (DECLARATION.test(xml)) throw new SsoResponseInvalid("The SAML message has a document type or entity declaration")
}

/** Parses with @xmldom/xmldom; any error or warning refuses the document. */
export function parseXml(xml: string): Document {
  const fail = (message: unknown) => {
    throw new SsoResponseInvalid(`The SAML message is not well-formed XML: ${String(message).slice(0, 200)}`)
  }
  let document: Document
  try {
    document = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(xml, "text/xml") as unknown as Document
  } catch (error) {
    if (error instanceof SsoResponseInvalid) throw error
    throw new SsoResponseInvalid(`The SAML message could not be parsed: ${(error as Error)?.message ?? String(error)}`)
  }
  if (!document?.documentElement) throw new SsoResponseInvalid("The SAML message has no root element")
  return document
}

function elements(node: Document | Element, namespace: string, localName: string): Element[] {
  return Array.from(node.getElementsByTagNameNS(namespace, localName) as ArrayLike<Element>)
}

function hasComment(element: Element): boolean {
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 8) return true
    if (node.nodeType === 1 && hasComment(node as Element)) return true
  }
  return false
}

export interface ResponseShape {
  /** The Response's `InResponseTo` (unsigned: for routing errors only), or null. */
  inResponseTo: string | null
  /** The assertion's `ID` as sent (unsigned: only to tell a replay early). */
  assertionId: string | null
}

/** The checks before node-saml: shape, one assertion, Destination, solicited. */
export function checkResponseShape(xml: string, acsUrl: string, allowIdpInitiated: boolean): ResponseShape {
  const document = parseXml(xml)
  const root = document.documentElement
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== "Response") throw new SsoResponseInvalid(`The SAML message is a ${root.localName}, not a Response`)
  const assertions = elements(document, ASSERTION_NS, "Assertion")
  const encrypted = elements(document, ASSERTION_NS, "EncryptedAssertion")
  if (encrypted.length) throw new SsoResponseInvalid("The response has an EncryptedAssertion: encrypted assertions are not supported (turn assertion encryption off at the identity provider)")
  if (assertions.length !== 1) throw new SsoResponseInvalid(`The response has ${assertions.length} assertions; exactly one is accepted`)
  const assertion = assertions[0]!
  if (assertion.parentNode !== root) throw new SsoResponseInvalid("The assertion is not a direct child of the response")
  for (const element of [...elements(assertion, ASSERTION_NS, "NameID"), ...elements(assertion, ASSERTION_NS, "AttributeValue")]) {
    if (hasComment(element)) throw new SsoResponseInvalid(`The assertion has a comment inside a ${element.localName}`)
  }
  const destination = root.getAttribute("Destination")
  if (destination && destination !== acsUrl) throw new SsoResponseInvalid(`The response's Destination is ${destination.slice(0, 200)}, not this connection's ACS URL`)
  const inResponseTo = root.getAttribute("InResponseTo") || null
  if (!inResponseTo && !allowIdpInitiated) throw new SsoUnsolicited("The response answers no request of ours, and the connection does not accept IdP-initiated sign-in")
  return { inResponseTo, assertionId: assertion.getAttribute("ID") || null }
}

const assertionKey = (connectionId: string, id: string) => `sso:saml-assertion:${connectionId}:${id}`
const seenKey = (connectionId: string, id: string) => `sso:saml-assertion-seen:${connectionId}:${id}`

/** Before node-saml: an assertion id used before is a replay (node-saml would only say its request id is gone). */
export async function refuseSeenAssertion(config: ResolvedConfig, connectionId: string, assertionId: string | null): Promise<void> {
  if (!assertionId || !config.store.getValue) return
  if (await config.store.getValue(seenKey(connectionId, assertionId))) throw new SsoReplay("This assertion was used before")
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown }

function childrenOf(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name]
  return Array.isArray(value) ? (value as XmlNode[]) : []
}

function time(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined
  const ms = typeof value === "string" ? Date.parse(value) : NaN
  if (!Number.isFinite(ms)) throw new SsoResponseInvalid(`The assertion's ${what} is not a time`)
  return ms
}

export interface SignedAssertion {
  id: string
  /** When the assertion stops being accepted (ms), the claim's end. */
  expiresAt: number
}

/** After node-saml: the signed assertion's ID, Recipient and expiry, read from what node-saml verified. */
export function checkSignedAssertion(profile: Profile, expected: { acsUrl: string; issuer: string; clockSkewMs: number }, now = Date.now()): SignedAssertion {
  const { acsUrl, clockSkewMs } = expected
  const parsed = profile.getAssertion?.() as { Assertion?: XmlNode } | undefined
  const assertion = parsed?.Assertion
  if (!assertion) throw new SsoResponseInvalid("node-saml returned no signed assertion")
  const id = assertion.$?.ID
  if (!id || typeof id !== "string") throw new SsoResponseInvalid("The signed assertion has no ID")
  // node-saml checks the Issuer of logout messages only: the assertion's is checked here.
  const issuer = childrenOf(assertion, "Issuer")[0]?._
  if (issuer !== expected.issuer) throw new SsoResponseInvalid(`The assertion's Issuer is ${String(issuer ?? "missing").slice(0, 200)}, not the connection's identity provider`)
  if (typeof profile.nameID !== "string" || !profile.nameID) throw new SsoResponseInvalid("The signed assertion has no NameID")
  const confirmations = childrenOf(childrenOf(assertion, "Subject")[0], "SubjectConfirmation").flatMap((confirmation) => childrenOf(confirmation, "SubjectConfirmationData"))
  if (!confirmations.length) throw new SsoResponseInvalid("The signed assertion has no SubjectConfirmationData")
  const ends: number[] = []
  for (const data of confirmations) {
    const recipient = data.$?.Recipient
    if (recipient !== acsUrl) throw new SsoResponseInvalid(`The assertion's Recipient is ${String(recipient ?? "missing").slice(0, 200)}, not this connection's ACS URL`)
    const end = time(data.$?.NotOnOrAfter, "SubjectConfirmationData NotOnOrAfter")
    if (end !== undefined) ends.push(end)
  }
  for (const conditions of childrenOf(assertion, "Conditions")) {
    const end = time(conditions.$?.NotOnOrAfter, "Conditions NotOnOrAfter")
    if (end !== undefined) ends.push(end)
  }
  if (!ends.length) throw new SsoResponseInvalid("The signed assertion has no NotOnOrAfter: an assertion that never expires is not accepted")
  const issued = time(assertion.$?.IssueInstant, "IssueInstant")
  if (issued === undefined) throw new SsoResponseInvalid("The signed assertion has no IssueInstant")
  if (now - clockSkewMs >= issued + MAX_ASSERTION_AGE_MS) throw new SsoResponseInvalid("The assertion was issued too long ago")
  const expiresAt = Math.min(Math.max(...ends), issued + MAX_ASSERTION_AGE_MS) + clockSkewMs
  return { id, expiresAt }
}

/** Claims the assertion's ID until it expires: false (a replay) becomes `SsoReplay`. */
export async function claimAssertion(config: ResolvedConfig, connectionId: string, assertion: SignedAssertion, now = Date.now()): Promise<void> {
  const ttl = Math.max(1, Math.ceil((assertion.expiresAt - now) / 1000))
  if (!(await config.store.claim(assertionKey(connectionId, assertion.id), ttl))) throw new SsoReplay("This assertion was used before")
  await config.store.putValue?.(seenKey(connectionId, assertion.id), "1", ttl)
}
