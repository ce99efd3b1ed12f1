/**
 * A SAML 2.0 identity provider's answers, forged in the test process (not a test file), for the
 * hostile suite against the assertion consumer (issue #28, saml-hostile.test.ts):
 * - `makeIdp`: a key and a self-signed certificate made at test time (`selfsigned`);
 * - `buildResponse`: a Response as a real IdP writes it (Issuer, Status Success, one Assertion with
 *   Subject/NameID and a Bearer SubjectConfirmation, Conditions with an AudienceRestriction, an
 *   AuthnStatement, an AttributeStatement with `email` and `groups`);
 * - `signResponse`: signs the assertion, the response, or both with xml-crypto's `SignedXml`
 *   (exclusive c14n, enveloped signature, rsa-sha256, KeyInfo/X509Certificate as IdPs send);
 * - the attack shapes, each made from a validly signed original: the eight signature-wrapping
 *   shapes of Somorovsky et al. ("On Breaking SAML", 2012: XSW1-XSW8), a comment inside NameID,
 *   an unsigned assertion beside a signed one, DOCTYPE and entity payloads;
 * - `readAuthnRequest`: the ID, Issuer and ACS URL of the SP's AuthnRequest (Redirect binding).
 */
import { randomBytes } from "node:crypto"
import { inflateRawSync } from "node:zlib"
import { DOMParser, XMLSerializer } from "@xmldom/xmldom"
import { SignedXml } from "xml-crypto"
import selfsigned from "selfsigned"

export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
} as const

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256"
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

/** An identity provider of the test: its entity id, private key and certificate (PEM). */
export interface TestIdp {
  entityId: string
  key: string
  cert: string
}

/** A key pair and a self-signed certificate for `entityId`, made now (selfsigned 5 is async). */
export async function makeIdp(entityId: string): Promise<TestIdp> {
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000)
  const notAfterDate = new Date(Date.now() + 365 * 24 * 3600 * 1000)
  const pems = await selfsigned.generate([{ name: "commonName", value: new URL(entityId).hostname }], { keySize: 2048, algorithm: "sha256", notBeforeDate, notAfterDate })
  return { entityId, key: pems.private, cert: pems.cert }
}

/** What the IdP says, and to whom. Times default to a response issued now, valid five minutes. */
export interface ResponseFields {
  issuer: string
  /** The Response's Destination (the ACS URL); null: no attribute. */
  destination: string | null
  /** SubjectConfirmationData Recipient (the ACS URL). */
  recipient: string
  /** The SP's entity id. */
  audience: string
  /** The AuthnRequest's ID this answers; undefined: unsolicited (IdP-initiated). */
  inResponseTo?: string
  nameId: string
  /** The `email` attribute (default: the NameID). */
  email?: string
  groups?: string[]
  now?: Date
  notBefore?: Date
  notOnOrAfter?: Date
  /** SubjectConfirmationData NotOnOrAfter (default: notOnOrAfter). */
  subjectNotOnOrAfter?: Date
  responseId?: string
  assertionId?: string
  /** Extra characters in an attribute (to make a response of a given size). */
  padding?: number
}

export const newId = (): string => `_${randomBytes(20).toString("hex")}`
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z")

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
}

/** The assertion alone (with its namespace declarations: it can stand in any Response). */
export function buildAssertion(fields: ResponseFields): string {
  const now = fields.now ?? new Date()
  const notBefore = fields.notBefore ?? new Date(now.getTime() - 30_000)
  const notOnOrAfter = fields.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)
  const subjectNotOnOrAfter = fields.subjectNotOnOrAfter ?? notOnOrAfter
  const inResponseTo = fields.inResponseTo === undefined ? "" : ` InResponseTo="${escapeXml(fields.inResponseTo)}"`
  const values = (name: string, items: string[]) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${items.map((item) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(item)}</saml:AttributeValue>`).join("")}</saml:Attribute>`
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${fields.assertionId ?? newId()}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${escapeXml(fields.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${escapeXml(fields.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${iso(subjectNotOnOrAfter)}" Recipient="${escapeXml(fields.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(fields.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${values("email", [fields.email ?? fields.nameId])}${values("groups", fields.groups ?? ["staff"])}${fields.padding ? values("padding", ["x".repeat(fields.padding)]) : ""}</saml:AttributeStatement>` +
    `</saml:Assertion>`
  )
}

/** The whole Response, unsigned. */
export function buildResponse(fields: ResponseFields): string {
  const now = fields.now ?? new Date()
  const destination = fields.destination === null ? "" : ` Destination="${escapeXml(fields.destination)}"`
  const inResponseTo = fields.inResponseTo === undefined ? "" : ` InResponseTo="${escapeXml(fields.inResponseTo)}"`
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${fields.responseId ?? newId()}" Version="2.0" IssueInstant="${iso(now)}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(fields.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    buildAssertion(fields) +
    `</samlp:Response>`
  )
}

export type SignWhere = "assertion" | "response" | "both"

const ASSERTION_XPATH = "//*[local-name(.)='Assertion' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:assertion']"
const RESPONSE_XPATH = "/*[local-name(.)='Response' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:protocol']"

function signElement(xml: string, idp: TestIdp, xpath: string): string {
  const signer = new SignedXml({ privateKey: idp.key, publicCert: idp.cert, signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: EXC_C14N })
  signer.addReference({ xpath, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 })
  // Where IdPs put it: right after the element's Issuer.
  signer.computeSignature(xml, { prefix: "ds", location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: "after" } })
  return signer.getSignedXml()
}

/** Signs the assertion, the response, or both (the assertion first: the response's signature covers it). */
export function signResponse(xml: string, idp: TestIdp, where: SignWhere): string {
  let signed = xml
  if (where !== "response") signed = signElement(signed, idp, ASSERTION_XPATH)
  if (where !== "assertion") signed = signElement(signed, idp, RESPONSE_XPATH)
  return signed
}

/** A response to `fields`, signed by `idp` where asked. */
export function forge(fields: ResponseFields, idp: TestIdp, where: SignWhere = "assertion"): string {
  return signResponse(buildResponse(fields), idp, where)
}

/** The `SAMLResponse` form value. */
export const encode = (xml: string): string => Buffer.from(xml, "utf8").toString("base64")

/**
 * Checks every signature in `xml` with `cert` (as a strict SP would, the key pinned, KeyInfo
 * ignored): the ids of the elements that each signature covers. Throws when one does not verify.
 */
export function verifiedIds(xml: string, cert: string): string[] {
  const doc = parse(xml)
  const signatures = elements(doc.documentElement!).filter((node) => node.localName === "Signature" && node.namespaceURI === NS.dsig)
  const ids: string[] = []
  for (const signature of signatures) {
    const checker = new SignedXml({ publicCert: cert })
    checker.loadSignature(signature)
    if (!checker.checkSignature(xml)) throw new Error("signature does not verify")
    for (const reference of checker.getReferences()) ids.push(String(reference.uri).replace(/^#/, ""))
  }
  return ids
}

// ---- DOM helpers -------------------------------------------------------------------------------

type El = Element

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, "text/xml")
}

const serialize = (doc: Document | Node): string => new XMLSerializer().serializeToString(doc)

function elements(root: El): El[] {
  const found: El[] = [root]
  for (let i = 0; i < found.length; i++) {
    const children = found[i]!.childNodes
    for (let j = 0; j < children.length; j++) if (children[j]!.nodeType === 1) found.push(children[j] as El)
  }
  return found
}

function child(parent: El, ns: string, name: string): El {
  const children = parent.childNodes
  for (let i = 0; i < children.length; i++) {
    const node = children[i] as El
    if (node.nodeType === 1 && node.localName === name && node.namespaceURI === ns) return node
  }
  throw new Error(`no ${name} under ${parent.localName}`)
}

function hasChild(parent: El, ns: string, name: string): boolean {
  try {
    child(parent, ns, name)
    return true
  } catch {
    return false
  }
}

const assertionOf = (response: El) => child(response, NS.assertion, "Assertion")
const signatureOf = (element: El) => child(element, NS.dsig, "Signature")

function withoutSignature(element: El): El {
  const copy = element.cloneNode(true) as El
  if (hasChild(copy, NS.dsig, "Signature")) copy.removeChild(signatureOf(copy))
  return copy
}

/** Who the attacker wants to be. */
export interface EvilIdentity {
  nameId: string
  email?: string
}

/** Rewrites the assertion's NameID and email attribute to `evil` (in place). */
function makeEvil(assertion: El, evil: EvilIdentity): El {
  const nameId = child(child(assertion, NS.assertion, "Subject"), NS.assertion, "NameID")
  nameId.textContent = evil.nameId
  child(emailAttribute(assertion), NS.assertion, "AttributeValue").textContent = evil.email ?? evil.nameId
  return assertion
}

/** The assertion's own `email` Attribute (a direct descendant: never one of a copy nested inside). */
function emailAttribute(assertion: El): El {
  const statement = child(assertion, NS.assertion, "AttributeStatement")
  const attributes = statement.childNodes
  for (let i = 0; i < attributes.length; i++) {
    const node = attributes[i] as El
    if (node.nodeType === 1 && node.localName === "Attribute" && node.getAttribute("Name") === "email") return node
  }
  throw new Error("no email attribute")
}

/** Runs `change` on the parsed signed original and serializes the result. */
function reshape(signed: string, change: (doc: Document, response: El) => void): string {
  const doc = parse(signed)
  change(doc, doc.documentElement!)
  return serialize(doc)
}

// ---- The signature-wrapping shapes (Somorovsky et al. 2012; the names SAML Raider uses) ----------
// XSW1, XSW2 wrap a signed Response; XSW3-XSW8 a signed Assertion. In each the signed original
// (or an unsigned copy with the signed id) still verifies, and an evil element sits where a
// careless SP reads the identity.

/**
 * XSW1: the evil Response (new ID, evil assertion) is the root; an unsigned copy of the original
 * Response, with the signed ID, is moved inside the root's Signature element.
 */
export function xsw1(signedResponse: string, evil: EvilIdentity): string {
  return reshape(signedResponse, (_doc, response) => {
    const original = withoutSignature(response)
    signatureOf(response).appendChild(original)
    response.setAttribute("ID", newId())
    const assertion = assertionOf(response)
    makeEvil(assertion, evil)
    assertion.setAttribute("ID", newId())
  })
}

/** XSW2: as XSW1, the unsigned copy of the original Response placed before the Signature (a detached shape). */
export function xsw2(signedResponse: string, evil: EvilIdentity): string {
  return reshape(signedResponse, (_doc, response) => {
    const original = withoutSignature(response)
    response.insertBefore(original, signatureOf(response))
    response.setAttribute("ID", newId())
    const assertion = assertionOf(response)
    makeEvil(assertion, evil)
    assertion.setAttribute("ID", newId())
  })
}

/** XSW3: an evil copy of the assertion (new ID, no signature) inserted before the signed original, as the Response's first assertion. */
export function xsw3(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (_doc, response) => {
    const original = assertionOf(response)
    const copy = makeEvil(withoutSignature(original), evil)
    copy.setAttribute("ID", newId())
    response.insertBefore(copy, original)
  })
}

/** XSW4: the evil copy (new ID, no signature) takes the original's place, and the signed original goes inside it. */
export function xsw4(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (_doc, response) => {
    const original = assertionOf(response)
    const copy = makeEvil(withoutSignature(original), evil)
    copy.setAttribute("ID", newId())
    response.replaceChild(copy, original)
    copy.appendChild(original)
  })
}

/**
 * XSW5: the original assertion is made evil in place, keeping its (now stale) signature, under a
 * new ID; an unsigned copy of the original, with the signed ID, is appended to the Response.
 */
export function xsw5(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (_doc, response) => {
    const original = assertionOf(response)
    const copy = withoutSignature(original)
    response.appendChild(copy)
    makeEvil(original, evil)
    original.setAttribute("ID", newId())
  })
}

/** XSW6: as XSW5, the unsigned copy of the original placed inside the evil assertion's Signature. */
export function xsw6(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (_doc, response) => {
    const original = assertionOf(response)
    const copy = withoutSignature(original)
    signatureOf(original).appendChild(copy)
    makeEvil(original, evil)
    original.setAttribute("ID", newId())
  })
}

/**
 * XSW7: an Extensions element (schema: any content) holding an evil unsigned copy of the assertion
 * (the signed ID kept) is inserted before the signed original.
 */
export function xsw7(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (doc, response) => {
    const original = assertionOf(response)
    const extensions = doc.createElementNS(NS.protocol, "samlp:Extensions")
    extensions.appendChild(makeEvil(withoutSignature(original), evil))
    response.insertBefore(extensions, original)
  })
}

/**
 * XSW8: the original assertion is made evil in place, keeping its signature, and an unsigned copy
 * of the original (the signed ID) goes into a ds:Object inside that signature.
 */
export function xsw8(signedAssertion: string, evil: EvilIdentity): string {
  return reshape(signedAssertion, (doc, response) => {
    const original = assertionOf(response)
    const copy = withoutSignature(original)
    const object = doc.createElementNS(NS.dsig, "ds:Object")
    object.appendChild(copy)
    signatureOf(original).appendChild(object)
    makeEvil(original, evil)
  })
}

/** The eight shapes by name; XSW1 and XSW2 take a response-signed original, the rest an assertion-signed one. */
export const XSW = { XSW1: xsw1, XSW2: xsw2, XSW3: xsw3, XSW4: xsw4, XSW5: xsw5, XSW6: xsw6, XSW7: xsw7, XSW8: xsw8 } as const
export const XSW_SIGNS: Record<keyof typeof XSW, SignWhere> = { XSW1: "response", XSW2: "response", XSW3: "assertion", XSW4: "assertion", XSW5: "assertion", XSW6: "assertion", XSW7: "assertion", XSW8: "assertion" }

// ---- Other shapes -----------------------------------------------------------------------------

/**
 * A comment inside the NameID and the email attribute value of a signed original, after `at`
 * characters: exclusive c14n without comments drops it, so the signature still verifies, and an
 * SP that reads only the first text node sees a shorter identity.
 */
export function commentInNameId(signed: string, at: number): string {
  return reshape(signed, (doc, response) => {
    const assertion = assertionOf(response)
    const targets = [child(child(assertion, NS.assertion, "Subject"), NS.assertion, "NameID"), child(emailAttribute(assertion), NS.assertion, "AttributeValue")]
    for (const target of targets) {
      const text = target.textContent ?? ""
      while (target.firstChild) target.removeChild(target.firstChild)
      target.appendChild(doc.createTextNode(text.slice(0, at)))
      target.appendChild(doc.createComment(""))
      target.appendChild(doc.createTextNode(text.slice(at)))
    }
  })
}

/** An unsigned assertion (built from `fields`) placed beside the signed one: before it, or after it. */
export function unsignedBeside(signed: string, fields: ResponseFields, where: "before" | "after"): string {
  return reshape(signed, (_doc, response) => {
    const original = assertionOf(response)
    const unsigned = parse(buildAssertion(fields)).documentElement!
    if (where === "before") response.insertBefore(unsigned, original)
    else response.appendChild(unsigned)
  })
}

/** A DOCTYPE with an internal subset put before the root; `use` replaces the NameID's text (e.g. an entity reference). */
export function withDoctype(signed: string, subset: string, use?: string): string {
  let xml = signed.replace(/^<\?xml[^>]*\?>/, "")
  if (use !== undefined) xml = xml.replace(/(<saml:NameID[^>]*>)[^<]*(<\/saml:NameID>)/, `$1${use}$2`)
  return `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE samlp:Response [${subset}]>${xml}`
}

/** The billion-laughs subset (ten levels of ten): `&lol9;` expands to 10^9 "lol"s. */
export function billionLaughs(): string {
  let subset = `<!ENTITY lol "lol">`
  for (let level = 1; level <= 9; level++) subset += `<!ENTITY lol${level} "${`&lol${level === 1 ? "" : level - 1};`.repeat(10)}">`
  return subset
}

// ---- The SP's AuthnRequest ---------------------------------------------------------------------

export interface AuthnRequestSeen {
  id: string
  issuer: string
  acsUrl: string | null
  destination: string | null
  relayState: string | null
}

/** Reads the HTTP-Redirect binding URL the SP sent the browser to. */
export function readAuthnRequest(location: string): AuthnRequestSeen {
  const url = new URL(location)
  const encoded = url.searchParams.get("SAMLRequest")
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`)
  const xml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8")
  const root = parse(xml).documentElement!
  const issuer = elements(root).find((node) => node.localName === "Issuer")?.textContent ?? ""
  return { id: root.getAttribute("ID") ?? "", issuer: issuer.trim(), acsUrl: root.getAttribute("AssertionConsumerServiceURL"), destination: root.getAttribute("Destination"), relayState: url.searchParams.get("RelayState") }
}
