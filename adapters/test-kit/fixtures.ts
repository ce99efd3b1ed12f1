/** Types and fixtures of the adapter contract kit. */
import { randomUUID } from "node:crypto"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../../lib/adapters.js"
import type { TransactionalAdapter } from "../../lib/core/adapter.js"

/** Reads that bypass the adapter, straight from storage. */
export interface BackDoor {
  user(id: string): Promise<Pick<AdapterUser, "id" | "email" | "name"> | null>
  account(provider: string, providerAccountId: string): Promise<Pick<AdapterAccount, "userId" | "access_token"> | null>
  session(sessionToken: string): Promise<Pick<AdapterSession, "userId" | "expires"> | null>
  verificationToken(identifier: string, token: string): Promise<Pick<VerificationToken, "expires"> | null>
  /** With the passkey details (`name`, `lastUsedAt`) where the adapter keeps them. */
  authenticator(credentialID: string): Promise<Pick<AdapterAuthenticator, "userId" | "counter" | "name" | "lastUsedAt"> | null>
}

export interface AdapterContractOptions {
  /** Creates the adapter (once, before the checks). */
  adapter: () => Adapter | Promise<Adapter>
  db: BackDoor
  setup?: () => Promise<void>
  teardown?: () => Promise<void>
  /** Checks to leave out, by name, each with the reason (printed when the suite runs). */
  skip?: Record<string, string>
}

/** What every group of checks receives. */
export interface ContractContext {
  adapter: () => Required<Omit<TransactionalAdapter, "transaction">> & Pick<TransactionalAdapter, "transaction">
  db: BackDoor
  check(name: string, test: () => Promise<void>): void
}

/** Fixtures: a fresh user record (not stored) with a unique email. */
export function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = randomUUID()
  return { id, email: `user-${id}@example.com`, emailVerified: null, name: `User ${id.slice(0, 8)}`, image: null, ...overrides }
}

export function newAccount(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "provider-a",
    providerAccountId: randomUUID(),
    access_token: `access-${randomUUID()}`,
    refresh_token: `refresh-${randomUUID()}`,
    id_token: "header.payload.signature",
    scope: "openid email profile",
    token_type: "bearer",
    expires_at: 1_900_000_000,
    session_state: { sid: "state-1" },
    authorization_details: [{ type: "payment_initiation", actions: ["initiate"] }],
    ...overrides,
  }
}

