/**
 * The password pages (lib/pages/capability-page.ts): the templates in ./views (each draws the
 * shared ./views/partials/password-page.ejs), their titles from this folder's texts.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const SIGNUP_PAGE = capabilityPage(import.meta.url, "password-signup", "password.signup.heading")
export const VERIFY_PAGE = capabilityPage(import.meta.url, "password-verify", "password.verify.heading")
export const FORGOT_PAGE = capabilityPage(import.meta.url, "password-forgot", "password.forgot.heading")
export const RESET_PAGE = capabilityPage(import.meta.url, "password-reset", "password.reset.heading")
export const CHANGE_PAGE = capabilityPage(import.meta.url, "password-change", "password.change.heading")
