/**
 * The EJS templates in `views/`, compiled once (on first use) with `filename` set so includes
 * resolve and are cached. Templates read `locals.*` (strict mode) and escape every value with
 * `<%= %>`; raw output is reserved for our own markup (the page body and the stylesheet).
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ejs from "ejs"
import { pageTexts, type PageTexts } from "./texts.js"

export type PageTemplate =
  | "account"
  | "account-confirm-email"
  | "account-undo-email"
  | "signin"
  | "signout"
  | "error"
  | "verify-request"
  | "email-confirm"
  | "notice"
  | "passkey-setup"
  | "two-factor"
  | "two-factor-setup"
  | "password-signup"
  | "password-verify"
  | "password-forgot"
  | "password-reset"
  | "password-change"
export type TemplateName = "layout" | PageTemplate | "email-html" | "email-text"

/** `views/` sits at the package root: two levels up from the sources, three from `dist/`. */
function viewsDirectory(): string {
  for (const relative of ["../../views/", "../../../views/"]) {
    const dir = fileURLToPath(new URL(relative, import.meta.url))
    if (existsSync(`${dir}layout.ejs`)) return dir
  }
  throw new Error("gatehouse: the views/ folder is missing from the installed package")
}

const compiled = new Map<TemplateName, ejs.TemplateFunction>()

function template(name: TemplateName): ejs.TemplateFunction {
  let fn = compiled.get(name)
  if (!fn) {
    const filename = `${viewsDirectory()}${name}.ejs`
    fn = ejs.compile(readFileSync(filename, "utf8"), { filename, strict: true, localsName: "locals", cache: true, rmWhitespace: true }) as ejs.TemplateFunction
    compiled.set(name, fn)
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
}

/** A template on its own (the mail's parts). */
export function render(name: "email-html" | "email-text", model: object): string {
  return template(name)(model) as string
}

/** A page: its template rendered into the shared layout, with texts `t` (default English). */
export function renderPage(name: PageTemplate, layout: LayoutModel, model: object, t: PageTexts = pageTexts()): string {
  const body = template(name)({ t, ...model }) as string
  return template("layout")({ lang: "en", ...layout, body }) as string
}
