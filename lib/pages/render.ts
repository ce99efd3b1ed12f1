/**
 * The EJS templates, compiled once (on first use) with `filename` set so includes resolve and are
 * cached: the core's in `views/` at the package root, a capability's in its folder's `views/`
 * (./capability-page.ts), whose includes of the core's partials (`partials/...`) fall back to
 * `views/`. Templates read `locals.*` (strict mode) and escape every value with `<%= %>`; raw
 * output is reserved for our own markup (the page body and the stylesheet).
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ejs from "ejs"
import type { CapabilityPage } from "./capability-page.js"
import { pageTexts, type PageTexts } from "./texts.js"

/** The core's pages; a capability's page is a `CapabilityPage`. */
export type PageTemplate = "signin" | "signout" | "error" | "verify-request" | "email-confirm" | "notice" | "diagnostics"
export type TemplateName = "layout" | PageTemplate | "email-html" | "email-text"

/** The `lib/` this module runs from: the sources', or `dist/lib/` in the build. */
const RUNNING_LIB = new URL("../", import.meta.url).href

/** The package root, where `views/` sits: two levels up from the sources, three from `dist/`. */
function packageRoot(): string {
  for (const relative of ["../../", "../../../"]) {
    const root = new URL(relative, import.meta.url)
    if (existsSync(new URL("views/layout.ejs", root))) return root.href
  }
  throw new Error("gatehouse: the views/ folder is missing from the installed package")
}

/**
 * A template's file: a core one in `views/`; a capability's in the package's `lib/` (tsc copies no
 * `.ejs` into `dist/`; package.json ships the capabilities' `views/` folders under `lib/`): its
 * place under the running `lib/` is its place there.
 */
function templateFile(name: TemplateName | CapabilityPage): string {
  if (typeof name === "string") return fileURLToPath(new URL(`views/${name}.ejs`, packageRoot()))
  const url = name.template.startsWith(RUNNING_LIB) ? `${packageRoot()}lib/${name.template.slice(RUNNING_LIB.length)}` : name.template
  return fileURLToPath(url)
}

const compiled = new Map<string, ejs.TemplateFunction>()

function template(name: TemplateName | CapabilityPage): ejs.TemplateFunction {
  const key = typeof name === "string" ? name : name.template
  let fn = compiled.get(key)
  if (!fn) {
    const filename = templateFile(name)
    const views = [fileURLToPath(new URL("views/", packageRoot()))]
    fn = ejs.compile(readFileSync(filename, "utf8"), { filename, views, strict: true, localsName: "locals", cache: true, rmWhitespace: true }) as ejs.TemplateFunction
    compiled.set(key, fn)
  }
  return fn
}

export interface LayoutModel {
  title: string
  /** The page's language (`<html lang>`); default `en`. */
  lang?: string
  css: string
  colorScheme: "auto" | "dark" | "light"
  logo?: string
  /** The body is the whole page (a capability's wide page): no centred card around it. */
  wide?: boolean
}

/** A template on its own (the mail's parts). */
export function render(name: "email-html" | "email-text", model: object): string {
  return template(name)(model) as string
}

/** A page (the core's, or a capability's): its template rendered into the shared layout, with texts `t` (default English). */
export function renderPage(name: PageTemplate | CapabilityPage, layout: LayoutModel, model: object, t: PageTexts = pageTexts()): string {
  const body = template(name)({ t, ...model }) as string
  return template("layout")({ lang: "en", ...layout, body }) as string
}
