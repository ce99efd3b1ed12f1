/** Rows to adapter records and back. Column names are snake_case; records are Auth.js-shaped. */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../../lib/adapters.js"
import type { AuthorizationDetails, JsonValue } from "../../lib/types.js"
import { optionalNumber, optionalStr, str, type Codec } from "./codec.js"

type Row = Record<string, unknown>

export function toUser(row: Row, codec: Codec): AdapterUser {
  return {
    id: str(row.id),
    name: optionalStr(row.name),
    email: optionalStr(row.email) ?? "",
    emailVerified: row.email_verified === null || row.email_verified === undefined ? null : codec.toDate(row.email_verified),
    image: optionalStr(row.image),
  }
}

export function userColumns(user: Partial<AdapterUser>, codec: Codec): Row {
  const columns: Row = {}
  if (user.name !== undefined) columns.name = user.name
  // An empty email is stored as NULL: many users without one must not collide on the unique index.
  if (user.email !== undefined) columns.email = user.email || null
  if (user.emailVerified !== undefined) columns.email_verified = user.emailVerified ? codec.instant(user.emailVerified) : null
  if (user.image !== undefined) columns.image = user.image
  return columns
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

function parsed(value: unknown): JsonValue | undefined {
  if (value === null || value === undefined) return undefined
  try {
    return JSON.parse(str(value))
  } catch {
    return str(value)
  }
}

export function accountColumns(account: AdapterAccount): Row {
  return {
    user_id: account.userId,
    type: account.type,
    provider: account.provider,
    provider_account_id: account.providerAccountId,
    refresh_token: account.refresh_token ?? null,
    access_token: account.access_token ?? null,
    expires_at: account.expires_at ?? null,
    token_type: account.token_type ?? null,
    scope: account.scope ?? null,
    id_token: account.id_token ?? null,
    session_state: json(account.session_state),
    authorization_details: json(account.authorization_details),
  }
}

export function toAccount(row: Row): AdapterAccount {
  const account: AdapterAccount = {
    userId: str(row.user_id),
    type: str(row.type) as AdapterAccount["type"],
    provider: str(row.provider),
    providerAccountId: str(row.provider_account_id),
  }
  const optional = {
    refresh_token: optionalStr(row.refresh_token),
    access_token: optionalStr(row.access_token),
    expires_at: optionalNumber(row.expires_at),
    token_type: optionalStr(row.token_type),
    scope: optionalStr(row.scope),
    id_token: optionalStr(row.id_token),
  }
  for (const [key, value] of Object.entries(optional)) if (value !== null) (account as Row)[key] = value
  const state = parsed(row.session_state)
  if (state !== undefined) account.session_state = state
  const details = parsed(row.authorization_details)
  if (Array.isArray(details)) account.authorization_details = details as unknown as AuthorizationDetails[]
  return account
}

/** A date column as a Date, or undefined when NULL (or not selected). */
function optionalDate(value: unknown, codec: Codec): Date | undefined {
  return value === null || value === undefined ? undefined : codec.toDate(value)
}

/** Sets `key` on `record` only when `value` holds something: Auth.js compares records with toEqual. */
function setWhenKnown<T extends object>(record: T, key: keyof T, value: unknown): void {
  if (value !== null && value !== undefined) (record as Record<PropertyKey, unknown>)[key] = value
}

/**
 * A session as the Auth.js contract wrote it: `sessionToken`, `userId`, `expires`, and Gatehouse's
 * facts (migration 0002) only when they hold a value, so a session created through the contract
 * reads back equal to what was written (issue #26).
 */
export function toSession(row: Row, codec: Codec): AdapterSession {
  const session: AdapterSession = { sessionToken: str(row.session_token), userId: str(row.user_id), expires: codec.toDate(row.expires) }
  setWhenKnown(session, "createdAt", optionalDate(row.created_at, codec))
  setWhenKnown(session, "lastSeenAt", optionalDate(row.last_seen_at, codec))
  setWhenKnown(session, "userAgent", optionalStr(row.user_agent))
  setWhenKnown(session, "ip", optionalStr(row.ip))
  return session
}

/** The facts columns of a session record that has them (created or refreshed by Gatehouse). */
export function sessionFactColumns(session: Partial<AdapterSession>, codec: Codec): Row {
  const columns: Row = {}
  if (session.createdAt) columns.created_at = codec.instant(session.createdAt)
  if (session.lastSeenAt) columns.last_seen_at = codec.instant(session.lastSeenAt)
  if (session.userAgent !== undefined) columns.user_agent = session.userAgent
  if (session.ip !== undefined) columns.ip = session.ip
  return columns
}

export function toVerificationToken(row: Row, codec: Codec): VerificationToken {
  return { identifier: str(row.identifier), token: str(row.token), expires: codec.toDate(row.expires) }
}

export function authenticatorColumns(authenticator: AdapterAuthenticator, codec: Codec): Row {
  return {
    credential_id: authenticator.credentialID,
    user_id: authenticator.userId,
    provider_account_id: authenticator.providerAccountId,
    credential_public_key: authenticator.credentialPublicKey,
    counter: authenticator.counter,
    credential_device_type: authenticator.credentialDeviceType,
    credential_backed_up: codec.bool(authenticator.credentialBackedUp),
    transports: authenticator.transports ?? null,
    // The details columns (migration 0005), written only when given (adapters that keep them).
    ...(authenticator.name !== undefined && { name: authenticator.name }),
    ...(authenticator.createdAt !== undefined && { created_at: authenticator.createdAt ? codec.instant(authenticator.createdAt) : null }),
    ...(authenticator.lastUsedAt !== undefined && { last_used_at: authenticator.lastUsedAt ? codec.instant(authenticator.lastUsedAt) : null }),
  }
}

export function toAuthenticator(row: Row, codec: Codec): AdapterAuthenticator {
  const authenticator: AdapterAuthenticator = {
    credentialID: str(row.credential_id),
    userId: str(row.user_id),
    providerAccountId: str(row.provider_account_id),
    credentialPublicKey: str(row.credential_public_key),
    counter: Number(row.counter),
    credentialDeviceType: str(row.credential_device_type),
    credentialBackedUp: Boolean(Number(row.credential_backed_up)),
    transports: optionalStr(row.transports),
  }
  // The details columns (migration 0005), only when known: passkeys registered through the Auth.js
  // contract (or before the migration) read back as they were written.
  setWhenKnown(authenticator, "name", optionalStr(row.name))
  setWhenKnown(authenticator, "createdAt", optionalDate(row.created_at, codec))
  setWhenKnown(authenticator, "lastUsedAt", optionalDate(row.last_used_at, codec))
  return authenticator
}
