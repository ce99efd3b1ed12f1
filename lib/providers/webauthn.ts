/**
 * WebAuthn sign-in (security keys and passkeys): `gatehouse/providers/webauthn`. For passkeys
 * (discoverable credentials with user verification), use `gatehouse/providers/passkey`.
 * Needs an adapter with the authenticator methods.
 */
import type { WebAuthnProviderConfig } from "./types.js"

export type WebAuthnOptions = Partial<Omit<WebAuthnProviderConfig, "type">>

export default function WebAuthn(options: WebAuthnOptions = {}): WebAuthnProviderConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    enableConditionalUI: true,
    userVerification: "preferred",
    attestationType: "none",
    formFields: { email: { label: "Email", required: false } },
    ...options,
    type: "webauthn",
  }
}

export type { WebAuthnProviderConfig, WebAuthnUserInfo } from "./types.js"
