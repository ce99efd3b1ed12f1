/**
 * An identity provider's SAML 2.0 metadata (issue #28), read when an organization's admin creates
 * or updates a SAML connection with `metadataXml` or `metadataUrl`: the IdP's entity id, the
 * single sign-on URL of the HTTP-Redirect binding, the single logout URL (HTTP-Redirect preferred)
 * and every signing certificate (two during a key rollover). Lookups are namespace-aware (a prefix
 * is whatever the document chose); a document type declaration (entities, external references)
 * is refused before parsing, and so is a document over 512 KiB. Anything missing or malformed is
 * `InvalidSsoConnection` naming what.
 */
import { DOMParser } from "@xmldom/xmldom"
import { InvalidSsoConnection } from "./errors.js"

export const MAX_METADATA_SIZE = 512 * 1024

const MD = "urn:oasis:names:tc:SAML:2.0:metadata"
const DS = "http://www.w3.org/2000/09/xmldsig#"
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"

export interface SamlMetadata {
  entityId: string
  ssoUrl: string
  sloUrl: string | null
  /** Base64 DER, whitespace removed, in document order, without repeats. */
  certificates: string[]
}

/** Element children of `parent` with this namespace and local name (not descendants). */
function children(parent: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = []
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element
    if (node.nodeType === 1 && element.namespaceURI === namespace && element.localName === localName) found.push(element)
  }
  return found
}

function parse(xml: string): Document {
  if (xml.length > MAX_METADATA_SIZE) throw new InvalidSsoConnection(`metadataXml: the metadata is over ${MAX_METADATA_SIZE} characters`)
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new InvalidSsoConnection("metadataXml: a document type declaration (DOCTYPE) is not accepted in metadata")
  const problems: string[] = []
  const note = (message: unknown) => {
    problems.push(String(message).split("\n")[0] ?? "")
  }
  const document = new DOMParser({ errorHandler: { warning: () => undefined, error: note, fatalError: note } }).parseFromString(xml, "text/xml")
  if (problems.length || !document?.documentElement) throw new InvalidSsoConnection(`metadataXml: not well-formed XML (${problems[0] ?? "no root element"})`)
  for (let node = document.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 10) throw new InvalidSsoConnection("metadataXml: a document type declaration (DOCTYPE) is not accepted in metadata")
  }
  return document
}

/** The first EntityDescriptor with an IDPSSODescriptor (the root, or one inside EntitiesDescriptor). */
function identityProvider(root: Element): { entity: Element; idp: Element } {
  const candidates = root.namespaceURI === MD && root.localName === "EntityDescriptor" ? [root] : root.namespaceURI === MD && root.localName === "EntitiesDescriptor" ? children(root, MD, "EntityDescriptor") : []
  if (!candidates.length) throw new InvalidSsoConnection("metadataXml: the document is not SAML 2.0 metadata (no md:EntityDescriptor)")
  for (const entity of candidates) {
    const idp = children(entity, MD, "IDPSSODescriptor")[0]
    if (idp) return { entity, idp }
  }
  throw new InvalidSsoConnection("metadataXml: the metadata describes no identity provider (no md:IDPSSODescriptor)")
}

function serviceUrl(idp: Element, localName: string, bindings: readonly string[]): string | undefined {
  const services = children(idp, MD, localName)
  for (const binding of bindings) {
    const location = services.find((service) => service.getAttribute("Binding") === binding)?.getAttribute("Location")?.trim()
    if (location) return location
  }
  return undefined
}

function signingCertificates(idp: Element): string[] {
  const found: string[] = []
  for (const key of children(idp, MD, "KeyDescriptor")) {
    const use = key.getAttribute("use")
    if (use && use !== "signing") continue
    for (const info of children(key, DS, "KeyInfo")) {
      for (const data of children(info, DS, "X509Data")) {
        for (const certificate of children(data, DS, "X509Certificate")) {
          const text = (certificate.textContent ?? "").replace(/\s+/g, "")
          if (text && !found.includes(text)) found.push(text)
        }
      }
    }
  }
  return found
}

/** The IdP's settings from its metadata; `InvalidSsoConnection` when they are not all there. */
export function parseSamlMetadata(xml: unknown): SamlMetadata {
  if (typeof xml !== "string" || !xml.trim()) throw new InvalidSsoConnection("metadataXml: empty")
  const document = parse(xml.trim())
  const { entity, idp } = identityProvider(document.documentElement as Element)
  const entityId = entity.getAttribute("entityID")?.trim()
  if (!entityId) throw new InvalidSsoConnection("metadataXml: the EntityDescriptor has no entityID")
  const ssoUrl = serviceUrl(idp, "SingleSignOnService", [REDIRECT])
  if (!ssoUrl) throw new InvalidSsoConnection("metadataXml: no SingleSignOnService with the HTTP-Redirect binding")
  const certificates = signingCertificates(idp)
  if (!certificates.length) throw new InvalidSsoConnection("metadataXml: no signing certificate (md:KeyDescriptor with ds:X509Certificate)")
  return { entityId, ssoUrl, sloUrl: serviceUrl(idp, "SingleLogoutService", [REDIRECT, POST]) ?? null, certificates }
}
