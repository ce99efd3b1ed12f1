/**
 * `GET bot-widget` (and HEAD, issue #33): the browser code of the widget, served by this router so
 * that no third party is loaded; read once, on first use, and revalidated with its ETag.
 * - ALTCHA: the `altcha` package's minified ES module with every language (it follows the
 *   element's `language`), whose workers are inside it, followed by `ALTCHA_STRINGS_SCRIPT` (the
 *   page's words). Load it with `<script type="module" src="...">` (its top-level names are
 *   module-scoped). `bot-widget?css` is its stylesheet (the same package's `altcha.css`): the
 *   pages allow no inline style, and the build injects its own `<style>` only when the page has
 *   no element with the id `altcha-css`, so the partial links this one under that id.
 * - reCAPTCHA v3: `RECAPTCHA_SCRIPT`, which puts Google's token in the form on submit.
 * `botWidgetUrl(baseUrl)` gives the ALTCHA address with the file's version, cached for a year;
 * the plain addresses are cached for a day.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { queryParam } from "../../core/request.js"
import { UnknownAction } from "../../errors.js"
import { ALTCHA_STRINGS_SCRIPT, RECAPTCHA_SCRIPT } from "../widget.js"

interface Asset {
  body: string
  type: string
  version: string
  etag: string
}

function asset(body: string, type: string): Asset {
  const version = createHash("sha256").update(body).digest("base64url").slice(0, 16)
  return { body, type, version, etag: `"${version}"` }
}

let altcha: { script: Asset; style: Asset } | undefined
let recaptcha: Asset | undefined

function altchaFiles(): NonNullable<typeof altcha> {
  if (!altcha) {
    // The package's exports name its UMD and unminified builds; the minified ES build sits beside them,
    // and the stylesheet its `external` build leaves to the page in the folder next to it.
    const main = dirname(createRequire(import.meta.url).resolve("altcha/i18n"))
    const script = `${readFileSync(join(main, "altcha.i18n.min.js"), "utf8")}\n${ALTCHA_STRINGS_SCRIPT}`
    const style = readFileSync(join(main, "..", "external", "altcha.css"), "utf8")
    altcha = { script: asset(script, "text/javascript; charset=utf-8"), style: asset(style, "text/css; charset=utf-8") }
  }
  return altcha
}

/** The widget's address with its version: the pages' `<script type="module" src>`. */
export function botWidgetUrl(baseUrl: string): string {
  return `${baseUrl}/bot-widget?v=${altchaFiles().script.version}`
}

/** An If-None-Match that names `etag` (or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(",").some((tag) => {
    const trimmed = tag.trim()
    return trimmed === "*" || trimmed === etag || trimmed === `W/${etag}`
  })
}

function chosen(ctx: RequestContext): Asset {
  const provider = ctx.config.botProtection?.provider
  if (provider === "altcha") {
    const files = altchaFiles()
    return ctx.request.query.has("css") ? files.style : files.script
  }
  if (provider === "recaptcha") return (recaptcha ??= asset(RECAPTCHA_SCRIPT, "text/javascript; charset=utf-8"))
  throw new UnknownAction("No action at bot-widget (bot protection with ALTCHA or reCAPTCHA is off)")
}

export async function botWidgetGet(ctx: RequestContext): Promise<ResponseInternal> {
  const { body, type, version, etag } = chosen(ctx)
  const headers = {
    "Content-Type": type,
    // A versioned address never changes; the plain one may, with the next release.
    "Cache-Control": queryParam(ctx.request, "v") === version ? "public, max-age=31536000, immutable" : "public, max-age=86400",
    ETag: etag,
  }
  if (matches(ctx.request.header("if-none-match"), etag)) return { status: 304, body: "", headers }
  return { status: 200, body, headers }
}
