/**
 * Enterprise sign-in's page (lib/pages/capability-page.ts): "Sign in with SSO", a centred card
 * like the sign-in page, its template in ./views and its title from this folder's texts. No
 * script: one field and a POST form.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const ENTRY_PAGE = capabilityPage(import.meta.url, "sso", "sso.heading")
