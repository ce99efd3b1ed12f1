/**
 * Rendering a built-in page, or redirecting to the app's replacement from `pages` with the same
 * query parameters. A replacement that points back at the built-in page is ignored (it would loop).
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { html, redirect } from "../core/response.js"
import { builtInPath, pageUrl, type PageName } from "../core/pages-url.js"
import { renderPage, type PageTemplate } from "./render.js"
import { pageCsp, themeStyle } from "./theme.js"

/** The redirect to the app's own page for `page`, if it has one that is not this very page. */
export function customPageRedirect(ctx: RequestContext, page: PageName): ResponseInternal | undefined {
  const custom = ctx.config.pages[page]
  if (!custom) return undefined
  const target = new URL(pageUrl(ctx, page))
  const self = new URL(builtInPath(ctx.request.basePath, page), ctx.request.origin)
  if (target.origin === self.origin && target.pathname === self.pathname) return undefined
  return redirect(pageUrl(ctx, page, ctx.request.query))
}

export function pageResponse(ctx: Pick<RequestContext, "config">, name: PageTemplate, title: string, model: object, status = 200): ResponseInternal {
  const style = themeStyle(ctx.config.theme, ctx.config.providers.list, ctx.config)
  const body = renderPage(name, { title, css: style.css, colorScheme: style.colorScheme, logo: style.logo }, model)
  const scripts = name === "signin" && ctx.config.providers.list.some((provider) => provider.type === "webauthn")
  return html(body, pageCsp(style, scripts), status)
}
