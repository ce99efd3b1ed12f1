/**
 * A page a capability brings (issue #25): its template in the capability's own `views/` folder,
 * the text key of its title, and whether it runs the WebAuthn script. The capability declares it
 * next to its templates (`lib/<capability>/pages.ts`) and hands it to `pageResponse` in place of a
 * core page's name, so the core names none of them. Its pages are always in the request's
 * language (their texts are the capability's, in every built-in language).
 */
import type { MessageKey } from "../i18n/en.js"

export interface CapabilityPage {
  /** The template's file URL beside the declaring module; read from the package's `lib/` (render.ts). */
  readonly template: string
  /** The key of its title (`<title>`) in the catalogs. */
  readonly title: MessageKey
  /** It runs the WebAuthn script (views/assets/webauthn.js) when a passkey provider is configured. */
  readonly webauthn: boolean
  /** Its template draws the whole page (header, navigation, main) at a wide width, not the centred card. */
  readonly wide: boolean
}

/**
 * `capabilityPage(import.meta.url, "<name>", "<title's text key>", { webauthn: true })`: the
 * template `views/<name>.ejs` beside the module that calls it.
 */
export function capabilityPage(moduleUrl: string, name: string, title: MessageKey, options: { webauthn?: boolean; wide?: boolean } = {}): CapabilityPage {
  return Object.freeze({ template: new URL(`views/${name}.ejs`, moduleUrl).href, title, webauthn: options.webauthn ?? false, wide: options.wide ?? false })
}
