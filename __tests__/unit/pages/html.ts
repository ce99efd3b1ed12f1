/** Small parse5 helpers for the page tests: parse a document, walk it, read attributes and text. */
import { parse, type DefaultTreeAdapterTypes } from "parse5"

export type Element = DefaultTreeAdapterTypes.Element
type Node = DefaultTreeAdapterTypes.Node

export interface Parsed {
  document: DefaultTreeAdapterTypes.Document
  elements: Element[]
  /** parse5's parse errors (bad nesting, duplicate attributes, ...), as error codes. */
  errors: string[]
}

function isElement(node: Node): node is Element {
  return "tagName" in node
}

function children(node: Node): Node[] {
  const list: Node[] = "childNodes" in node ? [...node.childNodes] : []
  if (isElement(node) && node.tagName === "template") list.push(...(node as DefaultTreeAdapterTypes.Template).content.childNodes)
  return list
}

/** Every element of the tree, in document order. */
export function allElements(root: Node): Element[] {
  const out: Element[] = []
  const visit = (node: Node) => {
    if (isElement(node)) out.push(node)
    children(node).forEach(visit)
  }
  visit(root)
  return out
}

export function parseHtml(html: string): Parsed {
  const errors: string[] = []
  const document = parse(html, { onParseError: (error) => errors.push(error.code) })
  return { document, elements: allElements(document), errors }
}

export function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value
}

/** The text content of a node (text of all descendants), as the browser would see it. */
export function textOf(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterTypes.TextNode).value
  return children(node).map(textOf).join("")
}

export function byTag(parsed: Parsed, tag: string): Element[] {
  return parsed.elements.filter((element) => element.tagName === tag)
}

/** Each element as "tag[attribute names]", to compare the shape of two renderings. */
export function shape(parsed: Parsed): string[] {
  return parsed.elements.map((element) => `${element.tagName}[${element.attrs.map((a) => a.name).join(",")}]`)
}

/** Every attribute value and text node of the document. */
export function allStrings(parsed: Parsed): string[] {
  const strings: string[] = []
  const visit = (node: Node) => {
    if (node.nodeName === "#text") strings.push((node as DefaultTreeAdapterTypes.TextNode).value)
    if (isElement(node)) strings.push(...node.attrs.map((a) => a.value))
    children(node).forEach(visit)
  }
  visit(parsed.document)
  return strings
}

const FORBIDDEN_TAGS = new Set(["script", "iframe", "frame", "frameset", "object", "embed", "svg", "math", "base", "link", "applet", "textarea", "noscript", "template"])

/** No element or attribute that could run code, load something, or change the page's meaning. */
export function expectNothingActive(parsed: Parsed) {
  for (const element of parsed.elements) {
    expect(FORBIDDEN_TAGS.has(element.tagName) ? element.tagName : "ok").toBe("ok")
    for (const { name, value } of element.attrs) {
      expect(name.startsWith("on") ? `${element.tagName} ${name}` : "ok").toBe("ok")
      expect(["srcdoc", "formaction", "style", "http-equiv"].includes(name) ? `${element.tagName} ${name}` : "ok").toBe("ok")
      if (name === "src" || name === "href" || name === "action") expect(value).not.toMatch(/^\s*(javascript|data|vbscript):/i)
    }
    if (element.tagName === "img") expect(attr(element, "src")).not.toBe("x")
  }
  expect(byTag(parsed, "style")).toHaveLength(1)
  expect(byTag(parsed, "title")).toHaveLength(1)
}

