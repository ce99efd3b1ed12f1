/**
 * `createAuthClient(options)`: the session state of this tab (fetched, refetched on focus and on
 * an interval, shared with the other tabs) and every sign-in method as a call that never
 * navigates (except an OAuth sign-in, which leaves for the provider unless `redirect: false`).
 */
import { AuthClientError } from "./errors.js"
import { CsrfToken, createTransport, getJson, post, redirectUrl, type Fields } from "./http.js"
import { passkeyCeremony, passkeysSupported } from "./passkey.js"
import { openSessionSync, type SessionSync, type SyncEvent } from "./session-sync.js"
import type {
  AuthClient,
  AuthClientOptions,
  DeviceSession,
  PasskeySignInOptions,
  PasswordSignUpFields,
  ProviderInfo,
  SecondFactorInput,
  SecondFactorMethod,
  Session,
  SessionState,
  SignInOptions,
  SignInResult,
} from "./types.js"

const LOADING: SessionState = Object.freeze({ data: null, status: "loading" })
/** Provider types whose sign-in starts at `signin/<id>` and leaves for another site. */
const REDIRECTING = new Set(["oauth", "oidc", "saml", "sso"])

const hereUrl = () => (typeof location === "undefined" ? undefined : location.href)

function asSession(body: unknown): Session | null {
  return body && typeof body === "object" && (body as Session).user ? (body as Session) : null
}

export function createAuthClient<P extends string = string>(options: AuthClientOptions = {}): AuthClient<P> {
  const basePath = options.basePath ?? "/auth"
  const transport = createTransport(basePath, options.fetch)
  const csrf = new CsrfToken(transport)
  const listeners = new Set<(state: SessionState) => void>()
  let state: SessionState = LOADING
  /** Methods of the sign-in waiting for its second factor in this tab, or null. */
  let pending: SecondFactorMethod[] | null = null
  let inFlight: Promise<Session | null> | null = null
  let providers: Promise<ProviderInfo[]> | null = null
  const cleanups: Array<() => void> = []

  // Where a redirect answered as JSON leads: the two-factor step (`<base>/two-factor`), or enrolment.
  const baseUrl = () => new URL(`${transport.base}/`, typeof location === "undefined" ? "http://localhost/" : location.href)
  const pathOf = (url: string) => new URL(url, baseUrl()).pathname.replace(/\/+$/, "")
  const actionPath = (action: string) => new URL(action, baseUrl()).pathname

  // A sign-in waiting for its second factor is remembered for this tab (sessionStorage), so that
  // a reload asks the server (GET two-factor) instead of showing the user as signed out.
  const pendingKey = `gatehouse:pending:${transport.base}`
  function setPending(methods: SecondFactorMethod[] | null): void {
    pending = methods
    try {
      if (methods) sessionStorage.setItem(pendingKey, "1")
      else sessionStorage.removeItem(pendingKey)
    } catch {
      // No storage (private mode, a worker): the pending step lasts as long as this page.
    }
  }
  function rememberedPending(): boolean {
    try {
      return sessionStorage.getItem(pendingKey) === "1"
    } catch {
      return false
    }
  }

  /** After a reload: the pending sign-in's methods if the server still has it, else null (forgotten). */
  async function recoverPending(): Promise<void> {
    if (pending || !rememberedPending()) return
    try {
      const answer = (await getJson(transport, "two-factor")) as { methods?: SecondFactorMethod[] }
      setPending(answer.methods ?? ["totp", "recovery"])
    } catch {
      setPending(null)
    }
  }

  function setState(next: SessionState): void {
    // A refetch that brings the same session keeps the state object (no render for nothing).
    const same = next.status === state.status && next.error === state.error && (next.data === state.data || JSON.stringify(next.data) === JSON.stringify(state.data))
    if (same) return
    state = Object.freeze(next)
    for (const listener of [...listeners]) listener(state)
  }

  function settle(session: Session | null): void {
    if (session && pending) setPending(null)
    setState({ data: session, status: session ? "authenticated" : pending ? "pending-second-factor" : "unauthenticated" })
  }

  function getSession(): Promise<Session | null> {
    inFlight ??= getJson(transport, "session")
      .then(
        async (body) => {
          const session = asSession(body)
          if (!session) await recoverPending()
          settle(session)
          return session
        },
        (error: unknown) => {
          const failure = error instanceof AuthClientError ? error : new AuthClientError("InvalidResponse", String(error), 0)
          setState({ data: state.data, status: state.status === "loading" ? "unauthenticated" : state.status, error: failure })
          throw failure
        },
      )
      .finally(() => (inFlight = null))
    return inFlight
  }

  const refetch = () => void getSession().catch(() => undefined)

  function onSync(event: SyncEvent): void {
    if (event === "signed-out") {
      setPending(null)
      setState({ data: null, status: "unauthenticated" })
    }
    refetch()
  }

  const sync: SessionSync | null = options.broadcast === false ? null : openSessionSync(`gatehouse:${transport.base}`, onSync)
  const announce = (event: SyncEvent) => sync?.post(event)

  if (typeof window !== "undefined" && typeof document !== "undefined") {
    if (options.refetchOnWindowFocus !== false) {
      const onVisible = () => document.visibilityState === "visible" && refetch()
      window.addEventListener("focus", refetch)
      document.addEventListener("visibilitychange", onVisible)
      cleanups.push(() => window.removeEventListener("focus", refetch), () => document.removeEventListener("visibilitychange", onVisible))
    }
    const seconds = options.refetchInterval ?? 0
    if (seconds > 0) {
      const timer = setInterval(() => document.visibilityState !== "hidden" && refetch(), seconds * 1000)
      cleanups.push(() => clearInterval(timer))
    }
  }

  function getProviders(): Promise<ProviderInfo[]> {
    providers ??= getJson(transport, "providers").then((body) => body as ProviderInfo[])
    providers.catch(() => (providers = null))
    return providers
  }

  async function providerOf(id: string): Promise<ProviderInfo> {
    const found = (await getProviders()).find((provider) => provider.id === id)
    if (!found) throw new AuthClientError("InvalidProvider", `No provider "${id}" is configured`, 404)
    return found
  }

  /** A sign-in step answered `{ url }`: the session it started, the second step it waits for, or where to go. */
  async function finish(body: unknown, path: string): Promise<SignInResult> {
    const url = redirectUrl(body, path)
    // A sign-in step gives the browser a new CSRF token (its cookie): the next POST fetches it.
    csrf.forget()
    const target = pathOf(url)
    if (target === actionPath("two-factor")) {
      const answer = (await getJson(transport, "two-factor")) as { methods?: SecondFactorMethod[] }
      const methods = answer.methods ?? ["totp", "recovery"]
      setPending(methods)
      setState({ data: null, status: "pending-second-factor" })
      return { status: "pending-second-factor", methods }
    }
    const session = await getSession()
    if (session) {
      announce("changed")
      return { status: "authenticated", session }
    }
    // No session and no second step: another page must be shown (e.g. two-factor enrolment, a notice).
    return { status: "redirect", url }
  }

  async function signIn(id: P, signInOptions: SignInOptions = {}): Promise<SignInResult> {
    const { callbackUrl = hereUrl(), redirect, ...fields } = signInOptions
    const provider = await providerOf(id)
    const name = encodeURIComponent(provider.id)
    if (provider.type === "webauthn") return passkeySignIn({ callbackUrl })
    if (REDIRECTING.has(provider.type)) {
      const url = redirectUrl(await post(transport, csrf, `signin/${name}`, { ...fields, callbackUrl }), `signin/${name}`)
      if (redirect !== false && typeof location !== "undefined") location.assign(url)
      return { status: "redirect", url }
    }
    if (provider.type === "email" && fields.code === undefined) {
      await post(transport, csrf, `signin/${name}`, { ...fields, callbackUrl })
      return { status: "email-sent", ...(typeof fields.email === "string" && { email: fields.email }) }
    }
    // Credentials (and Password) fields, or an email provider's one-time code.
    return finish(await post(transport, csrf, `callback/${name}`, { ...fields, callbackUrl }), `callback/${name}`)
  }

  async function passkeyProvider(): Promise<ProviderInfo> {
    const found = (await getProviders()).find((provider) => provider.type === "webauthn")
    if (!found) throw new AuthClientError("NoPasskeyProvider", "No passkey provider is configured", 0)
    return found
  }

  async function passkeySignIn(signInOptions: PasskeySignInOptions = {}): Promise<SignInResult> {
    const provider = await passkeyProvider()
    const ceremony = await passkeyCeremony(transport, provider.id, "authenticate", signInOptions.conditional, signInOptions.signal)
    const path = `callback/${encodeURIComponent(provider.id)}`
    return finish(await post(transport, csrf, path, { ...ceremony, callbackUrl: signInOptions.callbackUrl ?? hereUrl() }), path)
  }

  async function register(registerOptions: { name?: string } = {}): Promise<void> {
    const provider = await passkeyProvider()
    const ceremony = await passkeyCeremony(transport, provider.id, "register")
    const path = `callback/${encodeURIComponent(provider.id)}`
    await post(transport, csrf, path, { ...ceremony, name: registerOptions.name, callbackUrl: hereUrl() })
    await getSession()
    announce("changed")
  }

  async function signUp(fields: PasswordSignUpFields): Promise<{ status: "email-sent"; email: string }> {
    const { callbackUrl = hereUrl(), ...rest } = fields
    await post(transport, csrf, "signup", { ...rest, callbackUrl })
    return { status: "email-sent", email: fields.email }
  }

  async function requestReset(email: string, resetOptions: { callbackUrl?: string } = {}): Promise<{ status: "email-sent"; email: string }> {
    await post(transport, csrf, "forgot-password", { email, callbackUrl: resetOptions.callbackUrl ?? hereUrl() })
    return { status: "email-sent", email }
  }

  async function verifySecondFactor(input: SecondFactorInput): Promise<SignInResult> {
    if ("passkey" in input) return passkeySignIn()
    const code = "code" in input ? input.code : input.recoveryCode
    try {
      return await finish(await post(transport, csrf, "two-factor", { code }), "two-factor")
    } catch (error) {
      // The pending sign-in is gone: back to signed out.
      if (error instanceof AuthClientError && error.type === "TwoFactorExpired") {
        setPending(null)
        settle(null)
      }
      throw error
    }
  }

  async function signOut(signOutOptions: { callbackUrl?: string; redirect?: boolean } = {}): Promise<void> {
    const body = await post(transport, csrf, "signout", { callbackUrl: signOutOptions.callbackUrl ?? hereUrl() })
    csrf.forget()
    setPending(null)
    settle(null)
    announce("signed-out")
    if (signOutOptions.redirect && typeof location !== "undefined") location.assign(redirectUrl(body, "signout"))
  }

  async function updateSession(data?: unknown): Promise<Session | null> {
    const fields: Fields = data === undefined ? {} : { data }
    const session = asSession(await post(transport, csrf, "session", fields, true))
    settle(session)
    announce("changed")
    return session
  }

  async function listSessions(): Promise<DeviceSession[]> {
    return (await getJson(transport, "sessions")) as DeviceSession[]
  }

  async function revokeSession(target: string | { others: true }): Promise<number> {
    const fields = typeof target === "string" ? { id: target } : { others: "1" }
    const body = (await post(transport, csrf, "sessions/revoke", fields)) as { revoked?: unknown }
    announce("changed")
    // Revoking this very session signs this tab out.
    if (typeof target === "string") await getSession().catch(() => undefined)
    return typeof body?.revoked === "number" ? body.revoked : 0
  }

  return {
    basePath,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      if (state.status === "loading" && !inFlight) refetch()
      return () => listeners.delete(listener)
    },
    getSession,
    getProviders,
    signIn,
    verifySecondFactor,
    signOut,
    updateSession,
    listSessions,
    revokeSession,
    password: { signUp, requestReset },
    passkey: { isSupported: passkeysSupported, signIn: passkeySignIn, register },
    destroy() {
      cleanups.splice(0).forEach((cleanup) => cleanup())
      sync?.close()
      listeners.clear()
    },
  }
}
