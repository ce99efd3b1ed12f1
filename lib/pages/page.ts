/**
 * Rendering a built-in page, or redirecting to the app's replacement from `pages` with the same
 * query parameters. A replacement that points back at the built-in page is ignored (it would loop).
 * Pages are in the configured `locale`, else the language the request's `Accept-Language` prefers.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { html, redirect } from "../core/response.js"
import { builtInPath, pageUrl, type PageName } from "../core/pages-url.js"
import { chooseLocale, type ChosenLocale } from "../i18n/index.js"
import type { Messages } from "../i18n/en.js"
import { localizeErrorModel, type ErrorModel } from "./error.js"
import type { CapabilityPage } from "./capability-page.js"
import { renderPage, type PageTemplate } from "./render.js"
import { pageTexts } from "./texts.js"
import { pageCsp, themeStyle, type CspSources } from "./theme.js"

/** What rendering a page needs: the configuration, and the request's headers when there is one. */
export type PageContext = Pick<RequestContext, "config"> & { readonly request?: Pick<RequestContext["request"], "header"> }

/** The redirect to the app's own page for `page`, if it has one that is not this very page. */
export function customPageRedirect(ctx: RequestContext, page: PageName): ResponseInternal | undefined {
  const custom = ctx.config.pages[page]
  if (!custom) return undefined
  const target = new URL(pageUrl(ctx, page))
  const self = new URL(builtInPath(ctx.request.basePath, page), ctx.request.origin)
  if (target.origin === self.origin && target.pathname === self.pathname) return undefined
  return redirect(pageUrl(ctx, page, ctx.request.query))
}

/** The locale of a page for this request (without a request: the fixed locale, else English). */
export function pageLocale(ctx: PageContext): ChosenLocale {
  const { i18n } = ctx.config
  if (!ctx.request) return { locale: i18n.fixed ?? i18n.fallback, negotiated: false }
  return chooseLocale(i18n, ctx.request.header("accept-language"))
}

/**
 * The core's pages in the catalogs, and the key of each one's title (the error page's is its
 * heading); a capability's page names its own (./capability-page.ts).
 */
const TITLES: Readonly<Partial<Record<PageTemplate, keyof Messages>>> = Object.freeze({
  signin: "signin.heading",
  signout: "signout.heading",
  "verify-request": "verify.heading",
  "email-confirm": "confirm.heading",
  notice: "notice.AccountReclaimed.heading",
})

/** The key of a localized page's title (none for a page outside the catalogs, or the error page). */
const titleKey = (page: PageTemplate | CapabilityPage) => (typeof page === "string" ? TITLES[page] : page.title)

/**
 * A built-in page in the request's language: its texts and title come from the catalog (`title`
 * is the English one callers pass, used as it is only by pages outside the catalogs, which are
 * English), and an error page's model is re-read in that language. `csp`: sources the page's
 * forms need beside the usual policy (./theme.ts, `pageCsp`).
 */
export function pageResponse(ctx: PageContext, name: PageTemplate | CapabilityPage, title: string, model: object, status = 200, chosen?: ChosenLocale, csp?: CspSources): ResponseInternal {
  const key = titleKey(name)
  const localized = name === "error" || key !== undefined
  const { locale, negotiated } = localized ? (chosen ?? pageLocale(ctx)) : { locale: ctx.config.i18n.fallback, negotiated: false }
  const { tag, messages } = locale
  const view = name === "error" ? localizeErrorModel(model as ErrorModel, messages) : model
  // The error and notice pages' titles are their headings (a notice page shows one of several).
  const shownTitle = name === "error" ? (view as ErrorModel).heading : name === "notice" ? title : key !== undefined ? messages[key] : title
  const style = themeStyle(ctx.config.theme, ctx.config.providers.list, ctx.config)
  // A capability's notice at the top of every page: the admin tools' while an admin views the site as a user (issue #30).
  const layout = { title: shownTitle, lang: tag, css: style.css, colorScheme: style.colorScheme, logo: style.logo, wide: typeof name !== "string" && name.wide, banner: ctx.config.pageBanner?.(ctx, messages, tag) }
  const body = renderPage(name, layout, view, pageTexts(messages))
  const scripts = (name === "signin" || (typeof name !== "string" && name.webauthn)) && ctx.config.providers.list.some((provider) => provider.type === "webauthn")
  // `csp`: what a form on this page loads beside (a challenge widget, issue #33).
  const response = html(body, pageCsp(style, scripts, csp), status)
  const headers: Record<string, string> = { ...response.headers, "Content-Language": tag }
  if (negotiated) headers.Vary = "Accept-Language"
  return { ...response, headers }
}
