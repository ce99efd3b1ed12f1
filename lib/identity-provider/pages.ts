/**
 * The identity provider's pages (issue #32, lib/pages/capability-page.ts), drawn by page-render.ts
 * from the models of page-models.ts: consent, the device flow (code entry, confirmation, done or
 * refused), RP-initiated logout (the question, then "signed out"), and an OAuth error shown to a
 * person (an unknown client, a wrong redirect_uri). Their templates are in views/.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const CONSENT_PAGE = capabilityPage(import.meta.url, "oidc-consent", "oidcProvider.consent.title")
export const DEVICE_INPUT_PAGE = capabilityPage(import.meta.url, "oidc-device-input", "oidcProvider.deviceInput.title")
export const DEVICE_CONFIRM_PAGE = capabilityPage(import.meta.url, "oidc-device-confirm", "oidcProvider.deviceConfirm.title")
export const DEVICE_DONE_PAGE = capabilityPage(import.meta.url, "oidc-device-done", "oidcProvider.deviceDone.title")
/** The same template when the person refused the device: its title says so. */
export const DEVICE_ABORTED_PAGE = capabilityPage(import.meta.url, "oidc-device-done", "oidcProvider.deviceDone.abortedTitle")
export const LOGOUT_PAGE = capabilityPage(import.meta.url, "oidc-logout", "oidcProvider.logout.title")
export const LOGGED_OUT_PAGE = capabilityPage(import.meta.url, "oidc-logged-out", "oidcProvider.loggedOut.title")
export const PROVIDER_ERROR_PAGE = capabilityPage(import.meta.url, "oidc-error", "oidcProvider.error.title")
