/**
 * Passkeys: `gatehouse/providers/passkey`. WebAuthn with discoverable credentials (the passkey
 * holds the user, so signing in needs no username) and user verification (a fingerprint, face
 * or device PIN) required.
 */
import WebAuthn, { type WebAuthnOptions } from "./webauthn.js"
import type { WebAuthnProviderConfig } from "./types.js"

export default function Passkey(options: WebAuthnOptions = {}): WebAuthnProviderConfig {
  return WebAuthn({
    id: "passkey",
    name: "Passkey",
    userVerification: "required",
    ...options,
    registrationOptions: { authenticatorSelection: { residentKey: "required", userVerification: options.userVerification ?? "required" }, ...options.registrationOptions },
  })
}
