/**
 * Passkey set-up as a capability (lib/core/capability.ts): `GET passkey-setup[/<passkey provider>]`,
 * the page where a signed-in user (recently: lib/session/assurance.ts) creates a passkey, after an
 * email sign-in proved the address. The ceremony itself is the spec's `webauthn-options` and
 * `callback` actions; naming and renaming passkeys live beside this file.
 */
import { lazy, type Capability } from "../core/capability.js"
import { passkeysTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"

declare module "../types.js" {
  interface CapabilityActions {
    "passkey-setup": true
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof passkeysTexts.en> {}
}

export const passkeys: Capability = {
  name: "passkeys",
  texts: passkeysTexts,
  routes: {
    "passkey-setup": { GET: { handler: lazy(() => import("./actions/setup.js"), "passkeySetupPage"), provider: "optional", head: true } },
  },
  subPaths: ["passkey-setup"],
  // A bad name for a passkey rename (asked from the account page, which shows it in place, in its words).
  outcomes: { InvalidPasskeyName: { status: 400, message: { key: "account.error.InvalidPasskeyName" } } },
}
