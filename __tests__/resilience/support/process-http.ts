/**
 * A browser-like client for the app processes: bench/lib/http.js's cookie jar (fetch without
 * following redirects, Set-Cookie kept), plus the Gatehouse flows the runs repeat.
 */
import { CookieJar, headerValues, send } from "../../../bench/lib/http.js"

export { CookieJar, send }
export const SESSION_COOKIE = "authjs.session-token"

export interface SessionBody {
  user?: { name?: string | null; email?: string | null }
  expires?: string
}

/** GET <origin>/auth/csrf with the jar: the token (the jar keeps the cookie). */
export async function csrf(origin: string, jar: CookieJar): Promise<string> {
  const response = await send(jar, `${origin}/auth/csrf`)
  if (response.status !== 200) throw new Error(`GET /auth/csrf on ${origin} answered ${response.status}`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** POSTs a form to `path` on `origin` with the jar's cookies; the jar takes the answer's. */
export function postForm(origin: string, path: string, jar: CookieJar, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return send(jar, `${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  })
}

/**
 * Credentials sign-in: the csrf pair from `csrfOrigin`, the POST to `postOrigin` (the same process
 * or another). Returns the POST's response.
 */
export async function signIn(csrfOrigin: string, postOrigin: string, jar: CookieJar, username: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  const csrfToken = await csrf(csrfOrigin, jar)
  return postForm(postOrigin, "/auth/callback/credentials", jar, { csrfToken, username, password, callbackUrl: "/api/me" }, headers)
}

/** Signs in and throws unless it worked (302 to the callback URL with a session cookie). */
export async function signedIn(csrfOrigin: string, postOrigin: string, username: string, password: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await signIn(csrfOrigin, postOrigin, jar, username, password)
  const location = response.headers.get("location") ?? ""
  if (response.status !== 302 || !location.endsWith("/api/me") || ![...jar.cookies.keys()].some((name) => name.startsWith(SESSION_COOKIE))) {
    throw new Error(`sign-in of ${username} (csrf from ${csrfOrigin}, POST to ${postOrigin}) answered ${response.status} ${location}`)
  }
  return jar
}

/** GET <origin>/auth/session with the jar (the jar takes a re-sealed or cleared cookie). */
export async function readSession(origin: string, jar: CookieJar): Promise<{ status: number; body: SessionBody | null }> {
  const response = await send(jar, `${origin}/auth/session`)
  const text = await response.text()
  return { status: response.status, body: response.status === 200 ? (JSON.parse(text) as SessionBody | null) : null }
}

/** POST <origin>/auth/signout with a csrf pair from the same origin. */
export async function signOut(origin: string, jar: CookieJar): Promise<Response> {
  const csrfToken = await csrf(origin, jar)
  return postForm(origin, "/auth/signout", jar, { csrfToken, callbackUrl: "/" })
}

/** The Location header in autocannon's onResponse headers ("" when there is none). */
export function locationOf(headers: unknown): string {
  return String((headerValues(headers, "location") as unknown[])[0] ?? "")
}
