/**
 * The passkey set-up page (lib/pages/capability-page.ts): the template in ./views, its title from
 * this folder's texts; it creates the passkey in the browser, so it runs the WebAuthn script.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const SETUP_PAGE = capabilityPage(import.meta.url, "passkey-setup", "passkey.setup.heading", { webauthn: true })
