/**
 * Identifier-first sign-in (issue #26): which of the configured methods take a typed identifier
 * (an email address or a username), and so whether the sign-in page has two steps: first the
 * identifier (with the OAuth buttons and passkey autofill), then the methods that identifier can
 * use. A configuration with at most one such method keeps the one-step page.
 *
 * Account enumeration: the second step is decided from the configuration and the identifier's
 * kind only (an address, or not), never from the stored accounts, so it looks the same for an
 * identifier with an account and one without.
 */
import type { CredentialsConfig, Provider } from "../providers/types.js"

export type IdentifierKind = "email" | "username"

/** The longest identifier kept (an address is at most 254 characters; usernames are shorter). */
export const MAX_IDENTIFIER_LENGTH = 320

/** The query parameter step 1 sends (the OpenID Connect name for the same hint). */
export const LOGIN_HINT = "login_hint"

/** A loose address check: something, `@`, something with a dot or not (local hosts). */
const EMAIL = /^[^\s@]+@[^\s@]+$/

export function identifierKind(value: string): IdentifierKind {
  return EMAIL.test(value) ? "email" : "username"
}

/** The identifier from a query or body value: trimmed, bounded; undefined when empty or too long. */
export function readIdentifier(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed && trimmed.length <= MAX_IDENTIFIER_LENGTH ? trimmed : undefined
}

export interface IdentifierField {
  /** The form field's name (`email`, `username`, ...). */
  name: string
  /** The app's label, if it set one. */
  label?: string
  /** Whether it takes usernames too, or only addresses. */
  emailOnly: boolean
}

/**
 * The field of a credentials form that holds the identifier: named `email` or `username`, or typed
 * `email`, or autocompleted as a username. A form without one (a one-time code only) is not
 * identifier-first: it is shown whole on the first step.
 */
export function identifierField(provider: CredentialsConfig): IdentifierField | undefined {
  for (const [name, input] of Object.entries(provider.credentials ?? {})) {
    const tokens = (input.autocomplete ?? "").split(/\s+/)
    const email = input.type === "email" || (name === "email" && (input.type === undefined || input.type === "text"))
    if (email || name === "username" || tokens.includes("username")) return { name, label: input.label, emailOnly: email }
  }
  return undefined
}

/** The methods a typed identifier can lead to: credentials forms with an identifier field, email providers, passkeys. */
export function identifierMethods(providers: readonly Provider[]): number {
  return providers.filter((provider) => (provider.type === "credentials" ? identifierField(provider) !== undefined : provider.type === "email" || provider.type === "webauthn")).length
}

/** Whether the page has two steps: more than one method takes the identifier. */
export function isIdentifierFirst(providers: readonly Provider[]): boolean {
  return identifierMethods(providers) > 1
}

/** Whether some method takes a username (not only an address). */
export function acceptsUsernames(providers: readonly Provider[]): boolean {
  return providers.some((provider) => provider.type === "credentials" && identifierField(provider)?.emailOnly === false)
}

/** Whether some method takes an address: an email provider, or a credentials form's identifier field. */
export function acceptsEmails(providers: readonly Provider[]): boolean {
  return providers.some((provider) => provider.type === "email" || (provider.type === "credentials" && identifierField(provider) !== undefined))
}
