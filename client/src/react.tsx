/**
 * `gatehouse/react`: the browser client's session as React state. `SessionProvider` puts one
 * `AuthClient` (from `gatehouse/client`) in context and asks for the session once; `useSession`
 * reads the client's state through `useSyncExternalStore`, so every component sees the same
 * snapshot and a change in another tab (sign-out, revocation) re-renders them all; `RequireAuth`
 * shows its children to signed-in users only. Nothing here assumes a server renderer: on a server
 * the snapshot is "loading", and the first fetch happens in the browser after mount.
 *
 * The client's runtime is not imported (only its types): the app passes the client it created, so
 * this entry adds under 1 kB gzipped (1.8 kB minified) to a bundle that already holds the client.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from "react"
import type { AuthClient, Session, SessionState, SessionStatus } from "./index.js"

export type { AuthClient, Session, SessionState, SessionStatus } from "./index.js"

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the provider holds a client of any provider-id type
type AnyClient = AuthClient<any>

const ClientContext = createContext<AnyClient | null>(null)
ClientContext.displayName = "GatehouseClient"

/** What a server renderer (or a hydration pass) sees: nothing known yet. One object, so React sees no change. */
const SERVER_STATE: SessionState = Object.freeze({ data: null, status: "loading" }) as SessionState

export interface SessionProviderProps {
  /** The app's client, made once (outside components) with `createAuthClient()`. */
  client: AnyClient
  children?: ReactNode
  /**
   * Seconds between refetches while the page is visible, on top of the client's own
   * `refetchInterval` (0 or absent: none from the provider).
   */
  refetchInterval?: number
  /**
   * Refetch when the page becomes visible again. The client already does this by default
   * (`createAuthClient({ refetchOnWindowFocus })`); `true` here adds it for a client made without.
   */
  refetchOnWindowFocus?: boolean
}

/** Gives its subtree the client, and starts the first session fetch once mounted (in the browser). */
export function SessionProvider({ client, children, refetchInterval = 0, refetchOnWindowFocus = false }: SessionProviderProps) {
  useEffect(() => {
    // getSession dedupes concurrent calls, so a client that fetched by itself costs nothing more.
    if (client.getState().status === "loading") client.getSession().catch(() => undefined)
  }, [client])

  useEffect(() => {
    if (!(refetchInterval > 0)) return
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") client.getSession({ force: true }).catch(() => undefined)
    }, refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [client, refetchInterval])

  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisible = () => {
      if (document.visibilityState === "visible") client.getSession({ force: true }).catch(() => undefined)
    }
    document.addEventListener("visibilitychange", onVisible)
    return () => document.removeEventListener("visibilitychange", onVisible)
  }, [client, refetchOnWindowFocus])

  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
}

/** The client of the nearest `SessionProvider`, typed with the app's provider ids. */
export function useAuthClient<P extends string = string>(): AuthClient<P> {
  const client = useContext(ClientContext)
  if (!client) throw new Error("gatehouse/react: useSession, useAuthClient and RequireAuth need a <SessionProvider client={...}> above them")
  return client as AuthClient<P>
}

/** The client's state, re-read whenever the client reports a change. */
function useClientState(client: AnyClient): SessionState {
  const subscribe = useCallback((onChange: () => void) => client.subscribe(() => onChange()), [client])
  const getSnapshot = useCallback(() => client.getState(), [client])
  return useSyncExternalStore(subscribe, getSnapshot, () => SERVER_STATE)
}

export interface UseSessionOptions {
  /**
   * The component needs a signed-in user: while there is none, `status` stays "loading" (so the
   * component renders no signed-out state) and `onUnauthenticated` runs, by default a move to
   * the sign-in page (`<basePath>/signin?callbackUrl=<this page>`).
   */
  required?: boolean
  onUnauthenticated?: () => void
}

export interface UseSessionResult {
  data: Session | null
  status: SessionStatus
  /** Sends `data` to the session (the `session` callback's `trigger: "update"`) and returns the new session. */
  update(data?: unknown): Promise<Session | null>
}

/** The session and its status; re-renders on every change, this tab's or another's. */
export function useSession(options: UseSessionOptions = {}): UseSessionResult {
  const client = useAuthClient()
  const state = useClientState(client)
  const { required = false, onUnauthenticated } = options
  const missing = required && state.status === "unauthenticated"

  // The latest callback, read when the user goes missing: an inline function does not re-run it.
  const onMissing = useRef(onUnauthenticated)
  useEffect(() => {
    onMissing.current = onUnauthenticated
  })
  useEffect(() => {
    if (!missing) return
    if (onMissing.current) onMissing.current()
    else window.location.assign(`${client.basePath}/signin?${new URLSearchParams({ callbackUrl: window.location.href })}`)
  }, [missing, client])

  const update = useCallback((data?: unknown) => client.updateSession(data), [client])
  return { data: missing ? null : state.data, status: missing ? "loading" : state.status, update }
}

export interface RequireAuthProps {
  /** Shown to a signed-in user. */
  children?: ReactNode
  /** Shown while the session is being fetched (default: nothing). */
  fallback?: ReactNode
  /** Shown when nobody is signed in, e.g. the app's sign-in form (default: nothing). */
  unauthenticated?: ReactNode
  /** Shown between the first factor and the second, e.g. a code form (default: `unauthenticated`). */
  secondFactor?: ReactNode
}

/** Its children for a signed-in user; the matching prop for every other status. */
export function RequireAuth({ children, fallback = null, unauthenticated = null, secondFactor }: RequireAuthProps) {
  const { status } = useSession()
  switch (status) {
    case "authenticated":
      return <>{children}</>
    case "pending-second-factor":
      return <>{secondFactor === undefined ? unauthenticated : secondFactor}</>
    case "unauthenticated":
      return <>{unauthenticated}</>
    default:
      return <>{fallback}</>
  }
}
