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

const LIGHT = "--bg:#f4f4f5;--card:#fff;--text:#18181b;--muted:#52525b;--border:#d4d4d8;--input:#fff;--error-bg:#fef2f2;--error-text:#991b1b;--link:var(--brand)"
const DARK = "--bg:#09090b;--card:#18181b;--text:#f4f4f5;--muted:#a1a1aa;--border:#3f3f46;--input:#27272a;--error-bg:#450a0a;--error-text:#fecaca;--link:var(--text)"

const ACCOUNT_LAYOUT = [
  "body.wide{display:block}body.wide main{max-width:none;padding:0}",
  ".account-header{background:var(--card);border-bottom:1px solid var(--border)}",
  ".account-header-inner{max-width:64rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem}",
  ".account-app{margin:0;display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.125rem;color:var(--text)}.account-app img{max-height:2rem;max-width:8rem}",
  ".account-header-links{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}.account-header-links a{color:var(--text)}",
  ".account-header-links .button,.account-card button,.account-card .button{display:inline-block;width:auto;padding:.5rem 1rem}",
  ".account-layout{max-width:64rem;margin:0 auto;padding:1.5rem 1rem;display:grid;gap:1rem}",
  ".account-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}",
  ".account-nav a{display:block;padding:.35rem .75rem;border:1px solid var(--border);border-radius:1rem;color:var(--text);text-decoration:none}",
  "@media (min-width:56rem){.account-layout{grid-template-columns:12rem minmax(0,48rem);gap:2rem}.account-nav{position:sticky;top:1rem;align-self:start}.account-nav ul{flex-direction:column}.account-nav a{border-color:transparent;border-radius:.5rem}.account-nav a:hover{border-color:var(--border)}}",
  ".account-main{min-width:0}.account-main h1{text-align:left;font-size:1.5rem}",
  ".account-card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:1.25rem;margin:0 0 1.5rem;scroll-margin-top:1rem}",
  ".account-card h2{font-size:1.125rem;margin:0 0 1rem}.account-card h3{font-size:1rem;margin:0 0 .5rem}.account-card h4{font-size:1rem;margin:1rem 0 .25rem}",
  ".account-card input[type=text],.account-card input[type=email]{max-width:24rem}",
  ".account-block{border-top:1px solid var(--border);padding-top:1rem;margin:1rem 0 0}.account-card h2+.account-block{border-top:0;padding-top:0;margin-top:0}.account-card strong{color:var(--text)}",
  ".devices{list-style:none;margin:0;padding:0}.device{border-top:1px solid var(--border);padding:.75rem 0 0}.device:first-child{border-top:0;padding-top:0}",
  ".account-badge{display:inline-block;padding:0 .5rem;border:1px solid var(--border);border-radius:1rem;font-size:.875rem;font-weight:600;color:var(--text)}.account-badge.on{border-color:var(--brand)}",
  // A link in the text colour, for pages whose cards are dark (the brand colour may not contrast there).
  "a.text-link{color:var(--text)}",
  ".notice{border:1px solid var(--border);background:var(--card);color:var(--text);border-radius:.5rem;padding:.75rem}",
  ".danger-zone{border-color:var(--error-text)}",
  "textarea{display:block;width:100%;padding:.6rem .75rem;margin:0 0 1rem;border:1px solid var(--border);border-radius:.5rem;background:var(--input);color:var(--text);font:1rem/1.5 ui-monospace,monospace}",
  "details{margin:0 0 1rem}summary{cursor:pointer;margin:0 0 .5rem}",
].join("")

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
    ".field-choice{display:block;padding:.55rem .75rem;margin:0 0 1rem;border:1px solid var(--border);border-radius:.5rem;background:var(--input);color:var(--text);font:inherit;max-width:100%}fieldset{border:1px solid var(--border);border-radius:.5rem;padding:.5rem 1rem;margin:0 0 1rem}legend{font-weight:600;padding:0 .25rem}",
    "button:focus-visible,input:focus-visible,.field-choice:focus-visible,a:focus-visible{outline:3px solid var(--brand);outline-offset:2px}",
    // Bot protection's widget (issue #33): room between it and the form's button.
    ".bot-challenge{margin:0 0 1rem}",
    ".provider img{height:1.25rem;vertical-align:middle;margin-right:.5rem}",
    ".divider{display:flex;align-items:center;gap:.75rem;color:var(--muted);margin:1rem 0}",
    ".divider::before,.divider::after{content:'';flex:1;border-top:1px solid var(--border)}",
    ".error{background:var(--error-bg);color:var(--error-text);border-radius:.5rem;padding:.75rem;margin:0 0 1rem}",
    // Links in the brand colour on light cards; on dark ones in the text colour (underlined), as a
    // brand colour dark enough for white button text rarely reaches 4.5:1 on a dark card (WCAG 1.4.3).
    "a{color:var(--link)}",
    ".center{text-align:center}",
    // The sign-in page's steps (issue #26): the identifier carried to step two, errors beside their field, "Last used".
    "[hidden]{display:none!important}",
    ".identity{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem .75rem;color:var(--text);border:1px solid var(--border);border-radius:.5rem;padding:.5rem .75rem}",
    ".identity strong{overflow-wrap:anywhere}.choose{text-align:center}.secondary-path{margin:1rem 0 0}",
    ".field-error{color:var(--error-text);margin:-.75rem 0 1rem;font-size:.875rem;font-weight:600}input[aria-invalid=true]{border-color:var(--error-text)}",
    ".badge{display:inline-block;margin-left:.5rem;padding:0 .5rem;border-radius:999px;background:var(--card);color:var(--text);font-size:.75rem;line-height:1.5;vertical-align:middle}",
    ".passkey-create{border-top:1px solid var(--border);padding-top:1rem;margin:1rem 0 0}",
    ".passkey-create h2{font-size:1rem;margin:0 0 .5rem}",
    ".account-section{border-top:1px solid var(--border);padding-top:1rem;margin:1rem 0 0}",
    ".account-section h2{font-size:1rem;margin:0 0 .5rem}",
    ".check{display:flex;gap:.5rem;align-items:flex-start}.check input{width:auto;margin:.2rem 0 0}.check label{font-weight:400}",
    "button.danger{background:var(--error-bg);color:var(--error-text);border:1px solid var(--error-text)}",
    "a.button.secondary{background:transparent;color:var(--text);border:1px solid var(--border)}",
    // The account area (issue #26): a wide page with its own header, in-page navigation and cards; one column on a phone.
    ACCOUNT_LAYOUT,
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
 * Sources a page adds to its policy for what one of its forms loads (a challenge widget's script,
 * the frames and workers it opens, where it fetches from): each list joins its directive.
 */
export interface CspSources {
  script?: readonly string[]
  connect?: readonly string[]
  frame?: readonly string[]
  worker?: readonly string[]
  style?: readonly string[]
}

/** A directive's sources, each once, in the order given. */
const directive = (name: string, sources: readonly string[]) => (sources.length ? `; ${name} ${[...new Set(sources)].join(" ")}` : "")

/**
 * The page policy: nothing but this stylesheet and images; never framed. A page with a passkey
 * form also runs the router's own script and fetches the passkey options, both same-origin only.
 * `extra`: what a form on the page needs beside (a page without it keeps the policy as it was).
 */
export function pageCsp(style: ThemeStyle, scripts = false, extra?: CspSources): string {
  const own = scripts ? ["'self'"] : []
  const script = directive("script-src", [...own, ...(extra?.script ?? [])]) + directive("connect-src", [...own, ...(extra?.connect ?? [])])
  const more = directive("frame-src", extra?.frame ?? []) + directive("worker-src", extra?.worker ?? [])
  const styles = [style.hash, ...(extra?.style ?? [])].join(" ")
  return `default-src 'none'; style-src ${styles}; img-src 'self' https: http:${script}${more}; base-uri 'none'; frame-ancestors 'none'`
}
