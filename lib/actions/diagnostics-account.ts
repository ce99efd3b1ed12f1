/**
 * The diagnostics page's account-page section (issue #15): whether `GET <base>/account` works with
 * this configuration, and for each of its parts what is missing when it does not show. Read from
 * the resolved configuration only (no adapter call): the adapter's methods are checked by name.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"

export interface DiagnosticsAccountPart {
  /** Stable identifier, e.g. `email-change`. */
  part: string
  available: boolean
  /** What the part needs, or why it does not show, in words. */
  how: string
}

export interface DiagnosticsAccount {
  /** The built-in page (or the redirect to `pages.account`) answers; false: `AccountPageUnavailable`. */
  available: boolean
  url: string
  /** `pages.account` when the app draws its own page. */
  customPage: string | null
  parts: DiagnosticsAccountPart[]
}

const hasMethod = (config: ResolvedConfig, name: string) => typeof (config.adapter as Record<string, unknown> | undefined)?.[name] === "function"

function missingMethods(config: ResolvedConfig, names: string[]): string[] {
  return names.filter((name) => !hasMethod(config, name))
}

function part(name: string, missing: string[], needs: string, ok: string): DiagnosticsAccountPart {
  return missing.length ? { part: name, available: false, how: `Unavailable: ${needs} (missing: ${missing.join(", ")}).` } : { part: name, available: true, how: ok }
}

export function accountDiagnostics(config: ResolvedConfig, baseUrl: string): DiagnosticsAccount {
  const url = `${baseUrl}/account`
  const customPage = config.pages.account ?? null
  const types = new Set(config.providers.list.map((provider) => provider.type))
  if (!config.adapter) {
    return {
      available: false,
      url,
      customPage,
      parts: [
        {
          part: "account-page",
          available: false,
          how: "Unavailable: the account page and its actions (and the unlinkAccount and deleteAccount helpers) need an adapter, a database of users; without one they answer AccountPageUnavailable (501). Add an adapter (gatehouse/adapters/sql, memory or mongodb).",
        },
      ],
    }
  }
  const listing = missingMethods(config, ["listAccountsByUserId"])
  const parts: DiagnosticsAccountPart[] = [
    part("account-page", listing, "the page lists the user's sign-in methods with the adapter method listAccountsByUserId; without it the page answers MissingAdapterMethods", "Available."),
    part("profile-name", missingMethods(config, ["updateUser"]), "changing the name needs the adapter method updateUser", "Available."),
    types.has("email")
      ? part("email-change", missingMethods(config, ["updateUser", "createVerificationToken", "useVerificationToken", "getUserByEmail"]), "changing the email address needs the adapter's user and verification-token methods", "Available: a confirmation link is mailed to the new address.")
      : { part: "email-change", available: false, how: "Unavailable: changing the email address mails a confirmation link, which needs an email provider (gatehouse/providers/nodemailer or another email provider)." },
    types.has("oauth") || types.has("oidc")
      ? part("sign-in-methods", missingMethods(config, ["unlinkAccount"]), "disconnecting a provider needs the adapter method unlinkAccount", "Available: connect and disconnect each OAuth/OIDC provider.")
      : { part: "sign-in-methods", available: false, how: "Not shown: no OAuth or OIDC provider is configured to connect." },
    types.has("webauthn")
      ? part("passkeys", missingMethods(config, ["listAuthenticatorsByUserId", "deleteAuthenticator"]), "listing and removing passkeys needs the adapter methods listAuthenticatorsByUserId and deleteAuthenticator", "Available: list, add and remove passkeys.")
      : { part: "passkeys", available: false, how: "Not shown: no passkey provider (gatehouse/providers/passkey) is configured." },
    types.has("webauthn")
      ? part("passkey-names", missingMethods(config, ["updateAuthenticator"]), "each passkey's name, when it was added and last used, and Rename need the adapter method updateAuthenticator; without it each passkey shows as the end of its credential id", "Available: each passkey's name, when it was added and last used, and Rename.")
      : { part: "passkey-names", available: false, how: "Not shown: no passkey provider (gatehouse/providers/passkey) is configured." },
    config.session.strategy === "database"
      ? part("devices", missingMethods(config, ["listSessionsByUserId", "deleteSession", "deleteSessionsByUserId"]), "listing and signing out devices of database sessions needs the adapter methods listSessionsByUserId, deleteSession and deleteSessionsByUserId", "Available: the user's sessions, each with Sign out.")
      : config.store.listSessions
        ? { part: "devices", available: true, how: "Available: the user's cookie sessions as the session store records them." }
        : { part: "devices", available: false, how: "Only this device: the session store does not list cookie sessions (listSessions)." },
    part("delete-account", missingMethods(config, ["deleteUser"]), "deleting the account needs the adapter method deleteUser", "Available: after a sign-in within the last 10 minutes."),
  ]
  return { available: listing.length === 0, url, customPage, parts }
}
