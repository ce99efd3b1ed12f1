/**
 * The identity provider's pages as answers (issue #32): each model of page-models.ts drawn by its
 * template (pages.ts, views/oidc-*.ejs) in the request's language, never cached. The texts that
 * name the client, the user, a scope or the device are filled in here and escaped by the template
 * as a whole; the client's name and website are its own words (dynamic registration: anyone's), so
 * they are only ever text, and the website is a link only when it is an http(s) URL.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import type { Messages, MessageKey } from "../i18n/en.js"
import { format } from "../i18n/catalogs.js"
import type { CapabilityPage } from "../pages/capability-page.js"
import { pageLocale, pageResponse } from "../pages/page.js"
import { splitAt } from "../pages/texts.js"
import type { ClientView, ConsentModel, DeviceConfirmModel, DeviceDoneModel, DeviceInputModel, LoggedOutModel, LogoutModel } from "./page-models.js"
import { CONSENT_PAGE, DEVICE_ABORTED_PAGE, DEVICE_CONFIRM_PAGE, DEVICE_DONE_PAGE, DEVICE_INPUT_PAGE, LOGGED_OUT_PAGE, LOGOUT_PAGE, PROVIDER_ERROR_PAGE } from "./pages.js"

/** The scopes the consent page explains in words; any other is shown by its name. */
const SCOPE_TEXTS: Readonly<Record<string, MessageKey>> = Object.freeze({
  openid: "oidcProvider.consent.scope.openid",
  profile: "oidcProvider.consent.scope.profile",
  email: "oidcProvider.consent.scope.email",
  offline_access: "oidcProvider.consent.scope.offline_access",
  organization: "oidcProvider.consent.scope.organization",
})

/** A scope as the consent page lists it: its text when known, else its name (shown as code). */
interface ScopeView {
  name: string
  text?: string
}

function scopeViews(scopes: readonly string[], t: Messages): ScopeView[] {
  return scopes.map((name) => (Object.prototype.hasOwnProperty.call(SCOPE_TEXTS, name) ? { name, text: t[SCOPE_TEXTS[name] as MessageKey] } : { name }))
}

/** The client's website: a link only for an http(s) URL (never `javascript:` and the like). */
function website(client: ClientView, t: Messages): { before: string; after: string; text: string; href?: string } | undefined {
  if (!client.uri) return undefined
  const [before, after] = splitAt(t["oidcProvider.consent.website"], "uri")
  let href: string | undefined
  try {
    const url = new URL(client.uri)
    if (url.protocol === "https:" || url.protocol === "http:") href = url.href
  } catch {
    href = undefined
  }
  return { before, after, text: client.uri, href }
}

/** A page in the request's language, never cached. */
function answer(ctx: RequestContext, page: CapabilityPage, view: (t: Messages) => object, status: number): ResponseInternal {
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const response = pageResponse(ctx, page, t[page.title], view(t), status, chosen)
  return { ...response, headers: { ...response.headers, "Cache-Control": "no-store" } }
}

/** "<client> wants to access your account": the scopes, the APIs, who is signed in; Allow or Deny. */
export function consentPage(ctx: RequestContext, model: ConsentModel, status = 200): ResponseInternal {
  return answer(
    ctx,
    CONSENT_PAGE,
    (t) => ({
      action: model.action,
      csrfToken: model.csrfToken,
      heading: format(t["oidcProvider.consent.heading"], { client: model.client.name }),
      website: website(model.client, t),
      signedInAs: format(t["oidcProvider.consent.signedInAs"], { user: model.user.name ? `${model.user.name} (${model.user.email})` : model.user.email }),
      switchAccountUrl: model.switchAccountUrl,
      scopes: scopeViews(model.scopes, t),
      granted: scopeViews(model.granted, t),
      resources: model.resources,
    }),
    status,
  )
}

/** The device flow's code entry; `model.error` is shown beside the field. */
export function deviceInputPage(ctx: RequestContext, model: DeviceInputModel, status = 200): ResponseInternal {
  return answer(
    ctx,
    DEVICE_INPUT_PAGE,
    (t) => ({
      action: model.action,
      xsrf: model.xsrf,
      userCode: model.userCode ?? "",
      digits: model.digits,
      error: model.error === undefined ? undefined : t[`oidcProvider.deviceInput.error.${model.error}`],
    }),
    status,
  )
}

/** "Is this the code your device shows?": Yes, connect the device, or Cancel. */
export function deviceConfirmPage(ctx: RequestContext, model: DeviceConfirmModel, status = 200): ResponseInternal {
  return answer(
    ctx,
    DEVICE_CONFIRM_PAGE,
    (t) => ({
      action: model.action,
      xsrf: model.xsrf,
      userCode: model.userCode,
      intro: format(t["oidcProvider.deviceConfirm.intro"], { client: model.client.name }),
      address: model.device.ip ? format(t["oidcProvider.deviceConfirm.address"], { ip: model.device.ip }) : undefined,
      agent: model.device.userAgent ? format(t["oidcProvider.deviceConfirm.agent"], { agent: model.device.userAgent }) : undefined,
    }),
    status,
  )
}

/** The device is signed in, or (`aborted`) it was refused. */
export function deviceDonePage(ctx: RequestContext, model: DeviceDoneModel, status = 200): ResponseInternal {
  const page = model.aborted ? DEVICE_ABORTED_PAGE : DEVICE_DONE_PAGE
  return answer(
    ctx,
    page,
    (t) => ({
      heading: t[page.title],
      aborted: model.aborted,
      message: model.aborted
        ? t["oidcProvider.deviceDone.abortedMessage"]
        : model.client
          ? format(t["oidcProvider.deviceDone.message"], { client: model.client.name })
          : t["oidcProvider.deviceDone.messageNoClient"],
    }),
    status,
  )
}

/** RP-initiated logout's question: Sign out (`logout=yes`) or Stay signed in. */
export function logoutPage(ctx: RequestContext, model: LogoutModel, status = 200): ResponseInternal {
  return answer(
    ctx,
    LOGOUT_PAGE,
    (t) => ({
      action: model.action,
      xsrf: model.xsrf,
      fromClient: model.client ? format(t["oidcProvider.logout.fromClient"], { client: model.client.name }) : undefined,
      question: t[model.client ? "oidcProvider.logout.question" : "oidcProvider.logout.questionNoClient"],
    }),
    status,
  )
}

/** "You are signed out", after a logout with nowhere to go back to. */
export function loggedOutPage(ctx: RequestContext, model: LoggedOutModel, status = 200): ResponseInternal {
  return answer(
    ctx,
    LOGGED_OUT_PAGE,
    (t) => ({
      message: model.client ? format(t["oidcProvider.loggedOut.message"], { client: model.client.name }) : t["oidcProvider.loggedOut.messageNoClient"],
      home: ctx.request.origin,
    }),
    status,
  )
}

/**
 * An OAuth error shown to a person (an unknown client, a wrong redirect_uri: nowhere safe to send
 * it back to): its code and `oidc-provider`'s description (English), and the way home.
 */
export function providerErrorPage(ctx: RequestContext, error: { error: string; description?: string }, status: number): ResponseInternal {
  return answer(ctx, PROVIDER_ERROR_PAGE, () => ({ error: error.error, description: error.description, home: ctx.request.origin }), status)
}
