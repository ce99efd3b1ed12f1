/**
 * The pages' stylesheet for a theme, and its CSP hash. The CSS is inline (one request per page,
 * works without any asset route) and allowed by its SHA-256 hash, so the policy needs neither
 * 'unsafe-inline' nor a per-request nonce. Computed once per theme object.
 */
import { createHash } from "node:crypto"
import type { Theme } from "../types.js"
import type { Provider } from "../providers/types.js"
import { CSS_COLOR } from "../core/config/validate.js"

export interface ThemeStyle {
  css: string
  /** The `style-src` source for `css`. */
  hash: string
  colorScheme: "auto" | "dark" | "light"
  logo?: string
}

const cache = new WeakMap<object, ThemeStyle>()

/** A provider's button colours, as CSS rules; colours that are not plain CSS colours are dropped. */
function providerRules(providers: readonly Provider[]): string {
  const rules: string[] = []
  for (const provider of providers) {
    if (provider.type !== "oauth" && provider.type !== "oidc") continue
    const { bg, text } = provider.style ?? {}
    const declarations = [
      typeof bg === "string" && CSS_COLOR.test(bg.trim()) ? `background:${bg.trim()}` : "",
      typeof text === "string" && CSS_COLOR.test(text.trim()) ? `color:${text.trim()}` : "",
    ].filter(Boolean)
    if (declarations.length) rules.push(`.provider-${provider.id} button{${declarations.join(";")}}`)
  }
  return rules.join("")
}

const LIGHT = "--bg:#f4f4f5;--card:#fff;--text:#18181b;--muted:#52525b;--border:#d4d4d8;--input:#fff;--error-bg:#fef2f2;--error-text:#991b1b"
const DARK = "--bg:#09090b;--card:#18181b;--text:#f4f4f5;--muted:#a1a1aa;--border:#3f3f46;--input:#27272a;--error-bg:#450a0a;--error-text:#fecaca"

/**
 * The stylesheet for a theme (and the providers' button colours), cached per `key` (the resolved
 * configuration, or the theme object itself).
 */
export function themeStyle(theme: Theme, providers: readonly Provider[] = [], key: object = theme): ThemeStyle {
  const hit = cache.get(key)
  if (hit) return hit
  const colorScheme = theme.colorScheme ?? "auto"
  const brand = theme.brandColor?.trim() ?? "#2563eb"
  const buttonText = theme.buttonText?.trim() ?? "#fff"
  const palette =
    colorScheme === "dark"
      ? `:root{${DARK}}`
      : colorScheme === "light"
        ? `:root{${LIGHT}}`
        : `:root{${LIGHT}}@media (prefers-color-scheme:dark){:root{${DARK}}}`
  const css = [
    palette,
    `:root{--brand:${brand};--button-text:${buttonText};color-scheme:${colorScheme === "auto" ? "light dark" : colorScheme}}`,
    "*{box-sizing:border-box}",
    "body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}",
    "main{width:100%;max-width:24rem;padding:1rem}",
    ".card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem 1.5rem}",
    ".logo{display:block;max-height:4rem;max-width:12rem;margin:0 auto 1.5rem}",
    "h1{font-size:1.25rem;margin:0 0 1rem;text-align:center}",
    "p{margin:0 0 1rem;color:var(--muted)}",
    "form{margin:0 0 1rem}",
    "label{display:block;font-weight:600;margin:0 0 .25rem}",
    "input{display:block;width:100%;padding:.6rem .75rem;margin:0 0 1rem;border:1px solid var(--border);border-radius:.5rem;background:var(--input);color:var(--text);font:inherit}",
    "button,.button{display:block;width:100%;padding:.65rem .75rem;border:0;border-radius:.5rem;background:var(--brand);color:var(--button-text);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}",
    "button.secondary{background:transparent;color:var(--text);border:1px solid var(--border)}",
    "button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--brand);outline-offset:2px}",
    ".provider img{height:1.25rem;vertical-align:middle;margin-right:.5rem}",
    ".divider{display:flex;align-items:center;gap:.75rem;color:var(--muted);margin:1rem 0}",
    ".divider::before,.divider::after{content:'';flex:1;border-top:1px solid var(--border)}",
    ".error{background:var(--error-bg);color:var(--error-text);border-radius:.5rem;padding:.75rem;margin:0 0 1rem}",
    "a{color:var(--brand)}",
    ".center{text-align:center}",
    ".passkey-create{border-top:1px solid var(--border);padding-top:1rem;margin:1rem 0 0}",
    ".passkey-create h2{font-size:1rem;margin:0 0 .5rem}",
    ".account-section{border-top:1px solid var(--border);padding-top:1rem;margin:1rem 0 0}",
    ".account-section h2{font-size:1rem;margin:0 0 .5rem}",
    ".check{display:flex;gap:.5rem;align-items:flex-start}.check input{width:auto;margin:.2rem 0 0}.check label{font-weight:400}",
    "button.danger{background:var(--error-bg);color:var(--error-text);border:1px solid var(--error-text)}",
    "a.button.secondary{background:transparent;color:var(--text);border:1px solid var(--border)}",
    providerRules(providers),
  ].join("")
  const style: ThemeStyle = {
    css,
    hash: `'sha256-${createHash("sha256").update(css).digest("base64")}'`,
    colorScheme,
    logo: theme.logo,
  }
  cache.set(key, style)
  return style
}

/**
 * The page policy: nothing but this stylesheet and images; never framed. A page with a passkey
 * form also runs the router's own script and fetches the passkey options, both same-origin only.
 */
export function pageCsp(style: ThemeStyle, scripts = false): string {
  const script = scripts ? "; script-src 'self'; connect-src 'self'" : ""
  return `default-src 'none'; style-src ${style.hash}; img-src 'self' https: http:${script}; base-uri 'none'; frame-ancestors 'none'`
}
