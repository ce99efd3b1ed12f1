/**
 * The account page's "Connected apps" section (issue #32), when the `oidcProvider` option is on:
 * the apps the user allowed to use their account (name, address, the access given, since when)
 * with a Revoke form for each, posting to `<base>/connected-apps/revoke` and coming back to the
 * account page. Plain data for views/partials/connected-apps-section.ejs; the action
 * (actions/apps.ts) decides again whatever the form sends.
 */
import type { RequestContext } from "../core/context.js"
import { queryParam } from "../core/request.js"
import type { Messages } from "../i18n/index.js"
import { formatDateTime } from "../devices/when.js"
import { listConnectedApps, type ConnectedApp } from "./grants.js"

/** The query parameter (and value) marking a page a revoke form came back to with an error. */
export const FROM = { name: "from", value: "connected-apps" } as const
/** `?saved=` after a revoke. */
export const SAVED = "app-revoked"

export interface ConnectedAppItem {
  clientId: string
  name: string
  /** The client's `client_uri` (shown as text). */
  uri?: string
  /** What it may do: each scope's text, else the scope's name. */
  access: string[]
  /** The APIs its tokens may be for. */
  resources: string[]
  /** When it was first allowed, in the page's language, and as ISO 8601. */
  since: string
  sinceIso: string
}

export interface ConnectedAppsSection {
  /** `<base>/connected-apps`: the forms post to `<action>/revoke`. */
  action: string
  /** Where the forms come back to (the account page, marked). */
  callbackUrl: string
  apps: ConnectedAppItem[]
  /** The status line of a revoke form that came back; `claimed`: the page says nothing else about it. */
  status: { saved?: string; error?: string }
  claimed: boolean
}

/** A scope as the page says it: the consent page's text for it (`oidcProvider.consent.scope.<name>`, or `oidcProvider.scope.<name>`) when there is one, else its name. */
export function scopeText(t: Messages, scope: string): string {
  const texts = t as Readonly<Record<string, string | undefined>>
  for (const key of [`oidcProvider.scope.${scope}`, `oidcProvider.consent.scope.${scope}`]) {
    const text = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : undefined
    if (typeof text === "string" && text) return text
  }
  return scope
}

function appItem(app: ConnectedApp, t: Messages, tag: string): ConnectedAppItem {
  return {
    clientId: app.clientId,
    name: app.name,
    ...(app.uri !== undefined && { uri: app.uri }),
    access: app.scopes.map((scope) => scopeText(t, scope)),
    resources: [...app.resources],
    since: formatDateTime(app.since, tag),
    sinceIso: app.since.toISOString(),
  }
}

function status(ctx: RequestContext, t: Messages): { status: { saved?: string; error?: string }; claimed: boolean } {
  const error = queryParam(ctx.request, "error")
  if (error !== undefined) {
    if (queryParam(ctx.request, FROM.name) !== FROM.value) return { status: {}, claimed: false }
    return { status: { error: t["oidcProvider.apps.error"] }, claimed: true }
  }
  if (queryParam(ctx.request, "saved") === SAVED) return { status: { saved: t["oidcProvider.apps.saved"] }, claimed: true }
  return { status: {}, claimed: false }
}

/** The section's data, or undefined when the identity provider is off. */
export async function accountConnectedAppsSection(ctx: RequestContext, userId: string, back: string, t: Messages, tag: string): Promise<ConnectedAppsSection | undefined> {
  if (!ctx.config.oidcProvider) return undefined
  const apps = await listConnectedApps(ctx.config, userId)
  return {
    action: `${ctx.baseUrl}/connected-apps`,
    callbackUrl: `${back}${back.includes("?") ? "&" : "?"}${FROM.name}=${FROM.value}`,
    apps: apps.map((app) => appItem(app, t, tag)),
    ...status(ctx, t),
  }
}
