/** HTML helpers for the security suite: the DOM parse5 builds, forms, and the page-header oracle. */
import { expect } from "@jest/globals"
import { parse as parseHtml } from "parse5"

export interface HtmlNode {
  nodeName: string
  tagName?: string
  attrs?: Array<{ name: string; value: string }>
  childNodes?: HtmlNode[]
  content?: HtmlNode
  value?: string
}

export function elements(html: string): HtmlNode[] {
  const out: HtmlNode[] = []
  const visit = (node: HtmlNode) => {
    if (node.tagName) out.push(node)
    for (const child of node.childNodes ?? []) visit(child)
    if (node.content) visit(node.content)
  }
  visit(parseHtml(html) as unknown as HtmlNode)
  return out
}

export const attr = (node: HtmlNode, name: string) => node.attrs?.find((a) => a.name === name)?.value

/**
 * The DOM is clean: no script/img/svg/iframe/object/embed elements, no on* attributes, and no
 * href/src/action/formaction whose scheme is javascript: or data: (as a browser would read it).
 */
export function expectCleanDom(html: string, allowImages: string[] = []): void {
  for (const node of elements(html)) {
    expect(["script", "svg", "iframe", "object", "embed", "math", "base", "meta-refresh"]).not.toContain(node.tagName)
    if (node.tagName === "img") expect(allowImages).toContain(attr(node, "src"))
    if (node.tagName === "meta") expect((attr(node, "http-equiv") ?? "").toLowerCase()).not.toBe("refresh")
    for (const a of node.attrs ?? []) {
      expect(a.name.toLowerCase().startsWith("on")).toBe(false)
      if (["href", "src", "action", "formaction", "srcset", "background"].includes(a.name)) {
        // eslint-disable-next-line no-control-regex
        const squashed = a.value.replace(/[\u0000-\u0020]/g, "").toLowerCase()
        expect(squashed.startsWith("javascript:") || squashed.startsWith("data:") || squashed.startsWith("vbscript:")).toBe(false)
      }
    }
  }
}

export interface HtmlForm {
  action: string
  method: string
  fields: Record<string, string>
}

export function forms(html: string): HtmlForm[] {
  const result: HtmlForm[] = []
  const visit = (node: HtmlNode, form?: HtmlForm) => {
    let current = form
    if (node.tagName === "form") {
      current = { action: attr(node, "action") ?? "", method: (attr(node, "method") ?? "get").toLowerCase(), fields: {} }
      result.push(current)
    }
    if (node.tagName === "input" && current) {
      const name = attr(node, "name")
      if (name) current.fields[name] = attr(node, "value") ?? ""
    }
    for (const child of node.childNodes ?? []) visit(child, current)
  }
  visit(parseHtml(html) as unknown as HtmlNode)
  return result
}

/** HDR-01: the headers every Gatehouse HTML page carries. */
export function expectPageHeaders(res: { headers: Record<string, unknown> }): void {
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8")
  expect(res.headers["x-frame-options"]).toBe("DENY")
  // same-origin, not no-referrer: under no-referrer the page's own form POSTs carry `Origin: null`.
  expect(res.headers["referrer-policy"]).toBe("same-origin")
  expect(res.headers["cache-control"]).toBe("no-store")
  expect(res.headers["x-content-type-options"]).toBe("nosniff")
  expect(res.headers["x-powered-by"]).toBeUndefined()
  expect(res.headers["strict-transport-security"]).toBeUndefined()
  const csp = String(res.headers["content-security-policy"] ?? "")
  const directives = new Map(csp.split(";").map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name = "", ...values] = d.split(/\s+/)
    return [name.toLowerCase(), values] as const
  }))
  expect(directives.get("default-src")).toEqual(["'none'"])
  // script-src and object-src fall back to default-src 'none' unless set; if set, no inline scripts.
  expect(directives.get("script-src") ?? ["'none'"]).not.toContain("'unsafe-inline'")
  expect(directives.get("object-src") ?? ["'none'"]).toEqual(["'none'"])
  expect(directives.get("base-uri")).toEqual(["'none'"])
  expect(directives.get("frame-ancestors")).toEqual(["'none'"])
  expect(csp).not.toContain("unsafe-eval")
}
