/**
 * The banner every built-in page shows while an admin views the site as a user (issue #30): who
 * is being viewed, until when, and the button that stops (a POST form with the CSRF token to
 * `admin/stop-impersonating`). lib/pages/page.ts asks for it when it builds the layout's data.
 *
 * Cheap, and synchronous like page rendering: nothing is read unless impersonation is on and the
 * request carries the `gatehouse.impersonator` cookie (stash.ts), which exists exactly while this
 * browser impersonates someone. Then the session cookie says the rest: a cookie session's claims
 * (opened as every read opens them, from the opened-cookie cache), a database session's cached
 * entry (warm whenever the request read the session, as every page that shows a user does). A
 * database session this process has not read within the last second is named as "another user",
 * with the same stop button. An impersonation that ran out (the session reads as signed out, the
 * admin's own is still stashed) shows that it ended, with the button that brings the admin back.
 */
import type { CookiesOptions } from "../../types.js"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { format, type Messages } from "../../i18n/index.js"
import { nowSeconds } from "../../jwt/codec.js"
import { readChunked, type CookieJar } from "../../session/chunks.js"
import { openSessionValue } from "../../session/opened-cache.js"
import { IMPERSONATION_PREFIX, sessionTokenOf } from "../../session/database-strategy.js"
import { runtimeOf } from "../../devices/runtime.js"
import { formatDateTime } from "../../devices/when.js"
import { parseCookieHeader } from "../../express/cookie-header.js"
import { claimsImpersonation } from "./facts.js"
import { stashCookie } from "./stash.js"

/** What views/partials/impersonation-banner.ejs shows; every text in the page's language. */
export interface ImpersonationBanner {
  label: string
  text: string
  ends?: string
  stop: string
  action: string
  csrfToken: string
}

/** A page's context: the whole request's (a Gatehouse action), or only its headers (`requireAuth`'s error page). */
interface BannerContext {
  readonly config: ResolvedConfig
  readonly request?: { header(name: string): string | undefined }
}

const isRequestContext = (ctx: BannerContext): ctx is RequestContext => "outCookies" in ctx && "cookies" in ctx

/** The impersonated user's label and the end (epoch seconds); null: no impersonation in this session (it ended). */
type Facts = { user: string | null; ends: number } | null

function cookieFacts(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions): Facts {
  const name = set.sessionToken.name
  const value = readChunked(jar, name)
  const opened = value ? openSessionValue(config, value, name, nowSeconds()) : null
  const found = opened ? claimsImpersonation(opened.payload) : undefined
  if (!opened || !found) return null
  const { email, name: shown } = opened.payload
  return { user: (typeof email === "string" && email) || (typeof shown === "string" && shown) || null, ends: found.ends }
}

/** undefined: the session is one this process has not read lately (its facts are one store read away). */
function databaseFacts(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions): Facts | undefined {
  const token = sessionTokenOf(jar, set)
  if (!token?.startsWith(IMPERSONATION_PREFIX)) return null
  const cached = runtimeOf(config).databaseSessions.get(token, Date.now())
  if (!cached) return undefined
  if (!cached.impersonation) return null
  return { user: cached.user.email || cached.user.name || null, ends: cached.impersonation.ends }
}

/** This request's CSRF token: the one the page already issued, else the cookie's (else a new one). */
function csrfTokenOf(ctx: BannerContext, jar: CookieJar, set: CookiesOptions): string {
  const name = set.csrfToken.name
  if (isRequestContext(ctx)) {
    const issued = ctx.outCookies.filter((cookie) => cookie.name === name).pop()
    return issued ? issued.value.slice(0, issued.value.indexOf("|")) : ensureCsrfToken(ctx)
  }
  // Without the action's context (an error page of `requireAuth`), the cookie's token as it is: the POST checks it.
  const value = jar[name] ?? ""
  return value.includes("|") ? value.slice(0, value.indexOf("|")) : ""
}

export function impersonationBanner(ctx: BannerContext, t: Messages, tag: string): ImpersonationBanner | undefined {
  const { config } = ctx
  if (!config.admin?.impersonation || !ctx.request) return undefined
  let jar: CookieJar
  let sets: readonly CookiesOptions[]
  if (isRequestContext(ctx)) {
    jar = ctx.request.cookies
    sets = [ctx.cookies]
  } else {
    const header = ctx.request.header("cookie")
    if (!header) return undefined
    jar = parseCookieHeader(header)
    sets = [config.cookies.secure, config.cookies.plain]
  }
  const set = sets.find((candidate) => {
    const stash = stashCookie({ cookies: candidate } as RequestContext).name
    return jar[stash] !== undefined || jar[`${stash}.0`] !== undefined
  })
  if (!set) return undefined
  const facts = config.session.strategy === "database" ? databaseFacts(config, jar, set) : cookieFacts(config, jar, set)
  const ended = facts === null || (facts !== undefined && facts.ends <= nowSeconds())
  const base = `${isRequestContext(ctx) ? ctx.baseUrl : config.basePath === "/" ? "" : config.basePath}`
  return {
    label: t["admin.banner.label"],
    text: ended ? t["admin.banner.ended"] : facts?.user ? format(t["admin.banner.text"], { user: facts.user }) : t["admin.banner.someone"],
    ...(!ended && facts && { ends: format(t["admin.banner.ends"], { time: formatDateTime(facts.ends * 1000, tag) }) }),
    stop: t["admin.banner.stop"],
    action: `${base}/admin/stop-impersonating`,
    csrfToken: csrfTokenOf(ctx, jar, set),
  }
}
