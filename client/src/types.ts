/** The public types of gatehouse/client (no runtime code). */
import type { AuthClientError } from "./errors.js"

export type SessionStatus = "loading" | "authenticated" | "unauthenticated" | "pending-second-factor"

export interface SessionUser {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
  [key: string]: unknown
}

/** What `GET <base>/session` answers for a signed-in browser. */
export interface Session {
  user: SessionUser
  /** ISO date when the session ends unless it is used. */
  expires: string
  [key: string]: unknown
}

export interface SessionState {
  data: Session | null
  status: SessionStatus
  /** The last refetch failed (the data is the last one known). */
  error?: AuthClientError
}

/** A second factor a pending sign-in accepts. */
export type SecondFactorMethod = "totp" | "recovery" | "passkey"

export type SignInResult =
  | { status: "authenticated"; session: Session }
  | { status: "pending-second-factor"; methods: SecondFactorMethod[] }
  | { status: "email-sent"; email?: string }
  | { status: "redirect"; url: string }

export interface SignInOptions {
  /** Where the server's redirects lead (default: the current page). */
  callbackUrl?: string
  /** OAuth/OIDC/SAML: true (default) goes to the provider's page; false only returns its URL. */
  redirect?: boolean
  /** Anything else is a field of the form: credentials fields, `email` and `password`, `email`, `code`. */
  [field: string]: unknown
}

export type SecondFactorInput = { code: string } | { recoveryCode: string } | { passkey: true }

export interface PasswordSignUpFields {
  email: string
  password: string
  name?: string
  /** Where the confirmation link leads after it signs in (default: the current page). */
  callbackUrl?: string
  /** Anything else is sent too (e.g. a bot-protection answer). */
  [field: string]: unknown
}

export interface ProviderInfo {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** One of the signed-in user's live sessions (`GET <base>/sessions`). */
export interface DeviceSession {
  id: string
  current: boolean
  [key: string]: unknown
}

export interface AuthClientOptions {
  /** Where the router is mounted: a path on this origin (default "/auth") or an absolute URL. */
  basePath?: string
  /** Default globalThis.fetch. */
  fetch?: typeof fetch
  /** Seconds between refetches of the session; 0 (default) never. */
  refetchInterval?: number
  /** Refetch when the window gets the focus or the tab becomes visible (default true). */
  refetchOnWindowFocus?: boolean
  /** Tell the other tabs of this origin about every change, and hear theirs (default true). */
  broadcast?: boolean
}

export interface PasskeySignInOptions {
  /** Conditional UI: the passkeys are offered in the autofill of a field with autocomplete="username webauthn". */
  conditional?: boolean
  /** Aborts the ceremony (e.g. a conditional one when the page leaves). */
  signal?: AbortSignal
  callbackUrl?: string
}

export interface AuthClient<P extends string = string> {
  readonly basePath: string
  /** The state now (status "loading" until the first answer). */
  getState(): SessionState
  /** Called on every change of state; returns the unsubscribe function. The first subscriber starts the first fetch. */
  subscribe(listener: (state: SessionState) => void): () => void
  /** The session (GET <base>/session); concurrent calls share one request; `force` skips nothing but is kept for symmetry. */
  getSession(options?: { force?: boolean }): Promise<Session | null>
  getProviders(): Promise<ProviderInfo[]>
  signIn(provider: P, options?: SignInOptions): Promise<SignInResult>
  verifySecondFactor(input: SecondFactorInput): Promise<SignInResult>
  signOut(options?: { callbackUrl?: string; redirect?: boolean }): Promise<void>
  updateSession(data?: unknown): Promise<Session | null>
  listSessions(): Promise<DeviceSession[]>
  revokeSession(target: string | { others: true }): Promise<number>
  /** The Password provider's sign-up and forgot-password (both answer the same for every address). */
  password: {
    /** POST <base>/signup: a new address gets an account and a confirmation mail, a taken one a mail to its owner. */
    signUp(fields: PasswordSignUpFields): Promise<{ status: "email-sent"; email: string }>
    /** POST <base>/forgot-password: a reset link goes to the address if it has an account. */
    requestReset(email: string, options?: { callbackUrl?: string }): Promise<{ status: "email-sent"; email: string }>
  }
  passkey: {
    isSupported(): boolean
    signIn(options?: PasskeySignInOptions): Promise<SignInResult>
    register(options?: { name?: string }): Promise<void>
  }
  /** Stops timers, listeners and the channel. */
  destroy(): void
}
