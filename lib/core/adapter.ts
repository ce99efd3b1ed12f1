/**
 * The adapter as the core sees it: wrapped once at start-up so every failure is an
 * `AdapterError` (with the cause for the log) and every call is visible at verbose level, and
 * checked against the methods the configured features need. Core code never calls the user's
 * adapter directly.
 */
import { AdapterError, AuthError, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { Provider } from "../providers/types.js"
import type { LoggerInstance } from "./logger.js"

const CORE_ADAPTER_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  // Gatehouse extensions (optional; listing and revoking sessions need them).
  "listSessionsByUserId",
  "deleteSessionsByUserId",
  // Gatehouse extensions: cookie-session records and revocations in the database (no shared store).
  "putCookieSession",
  "listCookieSessions",
  "deleteCookieSessions",
  "addSessionRevocation",
  "listSessionRevocations",
  // Gatehouse extensions: a user's accounts and removing a passkey (reclaiming an unproven account).
  "listAccountsByUserId",
  "deleteAuthenticator",
  // Gatehouse extension: a user held for the rest of a transaction (removing a way to sign in, issue #24).
  "lockUser",
  // Gatehouse extension: storing refreshed provider tokens (getAccessToken, issue #17).
  "updateAccountTokens",
  // Gatehouse extension: passkey names and last use (the account page, issue #15).
  "updateAuthenticator",
  // Gatehouse extension: a user's outstanding links removed (password resets, email changes).
  "deleteVerificationTokens",
] as const satisfies readonly (keyof Adapter)[]

/**
 * Every adapter method Gatehouse calls: the core's, then each capability's own (its
 * `adapterMethods`, given by whoever holds the capability list: lib/core/adapter.ts must not import
 * it, as capability code imports this file).
 */
export function adapterMethods(capabilities: readonly { readonly adapterMethods?: readonly AdapterMethod[] }[]): readonly AdapterMethod[] {
  return [...CORE_ADAPTER_METHODS, ...capabilities.flatMap((capability) => capability.adapterMethods ?? [])]
}

export type AdapterMethod = keyof Adapter

/**
 * Gatehouse extensions: sign-outs and revocations told to every process sharing the database when
 * no `store` is configured (issue #36; the SQL adapter on PostgreSQL, LISTEN/NOTIFY). Wrapped
 * always, but not among `adapterMethods()`, the methods a full adapter has: only an adapter over a
 * database with pub/sub has these (not the memory or MongoDB adapter), so the "every method"
 * adapter types leave them optional too.
 */
export const SESSION_MESSAGE_METHODS = ["publishSessionMessage", "subscribeSessionMessages"] as const satisfies readonly AdapterMethod[]

export type SessionMessageMethod = (typeof SESSION_MESSAGE_METHODS)[number]

/**
 * An optional Gatehouse extension: run `work` atomically (in one database transaction), with an
 * adapter bound to it. Used to create a user and link its account together; adapters without it
 * get a compensating `deleteUser` when the second step fails. With `lockUser` as well, removing a
 * way to sign in runs in one, the user held (lib/account/per-user.ts).
 */
export interface TransactionalAdapter extends Adapter {
  transaction?<T>(work: (adapter: Adapter) => Promise<T>): Promise<T>
}

/** Set by adapters meant for tests and development, to warn when one runs in production. */
export const DEVELOPMENT_ADAPTER = Symbol.for("gatehouse.development-adapter")

const USERS: AdapterMethod[] = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "linkAccount"]
const SESSIONS: AdapterMethod[] = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"]
const EMAIL: AdapterMethod[] = ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"]
const WEBAUTHN: AdapterMethod[] = ["getAccount", "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"]

/** The methods the configured features call, as a pure function of the configuration. */
export function requiredMethods(strategy: "cookie" | "database", providers: readonly Provider[]): AdapterMethod[] {
  const needed = new Set<AdapterMethod>()
  const add = (methods: AdapterMethod[]) => methods.forEach((method) => needed.add(method))
  if (strategy === "database") add(SESSIONS)
  for (const provider of providers) {
    if (provider.type === "credentials") add(USERS)
    if (provider.type === "oauth" || provider.type === "oidc") add(USERS)
    if (provider.type === "email") add([...USERS, ...EMAIL])
    if (provider.type === "webauthn") add([...USERS, ...WEBAUTHN])
  }
  return [...needed]
}

export function assertAdapterMethods(adapter: Adapter, needed: readonly AdapterMethod[]): void {
  const missing = needed.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(`The adapter lacks ${missing.join(", ")}, which the configured session strategy and providers need`)
  }
}

/** Every method of `adapter`, wrapped: failures become AdapterError; calls are logged at verbose. */
export function wrapAdapter(adapter: TransactionalAdapter, logger: LoggerInstance, methods: readonly AdapterMethod[]): TransactionalAdapter {
  const wrapped: Record<string, unknown> = {}
  for (const method of [...methods, ...SESSION_MESSAGE_METHODS]) {
    const fn = adapter[method] as ((...args: unknown[]) => unknown) | undefined
    if (typeof fn !== "function") continue
    wrapped[method] = async (...args: unknown[]) => {
      logger.debug(`adapter_${method}`)
      try {
        return await fn.apply(adapter, args)
      } catch (error) {
        throw new AdapterError(`adapter.${method} failed`, { cause: { err: error, method } })
      }
    }
  }
  const transaction = adapter.transaction
  if (typeof transaction === "function") {
    wrapped.transaction = async <T>(work: (tx: Adapter) => Promise<T>) => {
      try {
        return (await transaction.call(adapter, (tx: Adapter) => work(wrapAdapter(tx, logger, methods)))) as T
      } catch (error) {
        throw error instanceof AuthError ? error : new AdapterError("adapter.transaction failed", { cause: { err: error, method: "transaction" } })
      }
    }
  }
  return wrapped as TransactionalAdapter
}
