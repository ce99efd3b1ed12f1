/**
 * The account pages (lib/pages/capability-page.ts): the templates in ./views, their titles from the
 * texts (the undo page's is the security notices', whose mail links to it).
 */
import { capabilityPage } from "../pages/capability-page.js"

export const ACCOUNT_PAGE = capabilityPage(import.meta.url, "account", "account.heading", { wide: true })
export const CONFIRM_EMAIL_PAGE = capabilityPage(import.meta.url, "account-confirm-email", "account.email.confirmHeading")
export const UNDO_EMAIL_PAGE = capabilityPage(import.meta.url, "account-undo-email", "notices.undo.heading")
