/**
 * The two-factor pages (lib/pages/capability-page.ts): the templates in ./views, their titles from
 * this folder's texts; the challenge offers a passkey, so it runs the WebAuthn script.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const CHALLENGE_PAGE = capabilityPage(import.meta.url, "two-factor", "twoFactor.heading", { webauthn: true })
export const SETUP_PAGE = capabilityPage(import.meta.url, "two-factor-setup", "twoFactor.setup.heading")
