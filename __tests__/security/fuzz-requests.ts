/**
 * Generators and the oracle for the INPUT-09 fuzz (not a test file). A generated request is plain
 * data (shown as it is when fast-check reports a counterexample); genuine values (alice's session,
 * the csrf pair, OAuth check cookies, the passkey challenge) are referred to by name and filled in
 * when the request is written to the socket, so shrinking keeps them intact.
 */
import fc from "fast-check"
import { CSRF, SESSION } from "./fixtures.js"

/** Names of genuine values a run may use, and the operators that break them (SESS-01/02). */
export const GENUINE = ["session", "csrfCookie", "csrfToken", "state", "pkce", "nonce", "challenge"] as const
export type Genuine = (typeof GENUINE)[number]
const MUTATIONS = ["flip", "truncate", "append", "upper", "quote", "dots", "segment"] as const

export type Value =
  | { literal: string }
  | { genuine: Genuine }
  | { mutate: Genuine; op: (typeof MUTATIONS)[number]; at: number }

export interface FuzzRequest {
  method: string
  /** The request target as sent: origin-form, absolute-form or `*`. */
  target: string
  query: Array<[string, Value]>
  headers: Array<[string, string]>
  cookies: Array<[string, Value]>
  body?: { type?: string; form?: Array<[string, Value]>; json?: unknown; raw?: string }
}

/** Strings the NO-LEAK oracle would mistake for a leak if the app reflected them (it may). */
const LEAKY = /\.(?:ts|js|mjs|cjs):\d|node_modules|Error\b|\/work\//i
const clean = (s: string) => s.replace(/[\r\n]/g, " ")

const CHARS = [..."abcXYZ019-._~!$&'()*+,;=:@/?#[]%\\\" <>{}|^`", "%00", "%2F", "%2e", "%5C", "%ZZ", "%E0%A4%A", "%FF", "%0D%0A", "\t", "\u00e9", "\u0430", "\uff20", "\u202e", "\ud83d\ude00"]
const junk = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 }).filter((s) => !LEAKY.test(s))

const NAMED: string[] = [
  "", "alice", "bob", "correct-horse", "battery-staple", "alice@example.com", "ALICE@EXAMPLE.COM", "alice\uff20example.com",
  "a@b.c, bob@example.com", "\"a@b\"@example.com", "/dashboard", "//evil.example/", "/\\evil.example", "https://evil.example/",
  "http://app.test:3000@evil.example/", "javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "http://[::1",
  "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "<%= process.version %>", "authenticate", "register",
  "__proto__", "constructor", "toString", "null", "[]", "{}", "CredentialsSignin", "MissingCSRF", "Verification", "access_denied",
  "email", "credentials", "idp", "passkey", "nodemailer", "1e309", "-1", "\u0000", "x".repeat(3000),
]
const text = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAMED) }, { weight: 2, arbitrary: junk }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }).filter((s) => !LEAKY.test(s)) })

export const value: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: text.map((literal) => ({ literal })) },
  { weight: 2, arbitrary: fc.constantFrom(...GENUINE).map((genuine) => ({ genuine })) },
  { weight: 2, arbitrary: fc.record({ mutate: fc.constantFrom(...GENUINE), op: fc.constantFrom(...MUTATIONS), at: fc.nat(400) }) },
)

const FIELDS = ["csrfToken", "callbackUrl", "redirectTo", "email", "username", "password", "token", "code", "state", "iss", "error", "action", "data", "provider", "type", "authorizationParams", "__proto__", "x[y]", "callbackUrl[]"]
const pairs = (max: number) => fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: junk }), value), { maxLength: max })

const ACTIONS = ["signin", "signout", "callback", "session", "csrf", "providers", "error", "verify-request", "webauthn-options", "assets", "CSRF", "%63srf", "admin", "__proto__", ""]
const PROVIDERS = ["credentials", "nodemailer", "idp", "passkey", "IDP", "webauthn.js", "x.js", "__proto__", "constructor", "hasOwnProperty", "..%2Fsession", "%2e%2e", "idp%00", "idp%2F..%2Fcredentials", "a".repeat(300)]
const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROVIDERS) }, { weight: 1, arbitrary: junk.map((s) => encodeURI(s).replace(/[?#]/g, "")) })

const authPath = fc
  .tuple(fc.constantFrom(...ACTIONS), fc.option(segment, { nil: undefined, freq: 2 }), fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(segment, { minLength: 1, maxLength: 2 }) }), fc.boolean())
  .map(([action, provider, extra, slash]) => `/auth/${[action, provider, ...extra].filter((s) => s !== undefined).join("/")}${slash ? "/" : ""}`)
const otherPath = fc.constantFrom("/dashboard", "/api/me", "/", "/auth", "/auth/", "//auth/csrf", "/auth//session", "//evil.example/dashboard", "/\\evil.example", "/authx/csrf", "/dashboard/../auth/session")

export const target: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: authPath },
  { weight: 3, arbitrary: otherPath },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("http://app.test:3000", "http://evil.example", "https://app.test:3000"), fc.oneof(authPath, otherPath)).map(([origin, path]) => `${origin}${path}`) },
  { weight: 1, arbitrary: fc.constant("*") },
)

const HOSTS = ["app.test:3000", "app.test:3000", "app.test:3000", "evil.example", "", "app.test:3000:80", "[::1]:3000", "app.test:3000@evil.example", "a b"]
const ORIGINS = ["http://app.test:3000", "https://evil.example", "null", "http://app.test:3001"]
const TYPES = [
  "application/x-www-form-urlencoded", "application/json", "application/json; charset=utf-8", "application/x-www-form-urlencoded; charset=latin1",
  "text/plain", "multipart/form-data; boundary=x", "application/xml", "application/merge-patch+json", 'application/json;charset="UTF-8"', "x/y; charset",
]
const header: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constant("Origin"), fc.constantFrom(...ORIGINS)),
  fc.tuple(fc.constant("Sec-Fetch-Site"), fc.constantFrom("same-origin", "same-site", "cross-site", "none")),
  fc.tuple(fc.constant("Accept"), fc.constantFrom("text/html", "application/json", "*/*", "text/html;q=foo", "")),
  fc.tuple(fc.constantFrom("X-Forwarded-Host", "X-Forwarded-Proto", "Forwarded", "X-Forwarded-For"), fc.oneof(fc.constantFrom("evil.example", "https", "javascript", "host=evil.example;proto=https", "%00"), junk)),
  fc.tuple(fc.constantFrom("X-Auth-Return-Redirect", "Sec-Purpose", "X-HTTP-Method-Override"), fc.constantFrom("1", "prefetch", "GET", "true")),
  fc.tuple(fc.constantFrom("Content-Encoding", "Authorization", "Referer", "Transfer-Encoding"), fc.constantFrom("gzip", "identity", "Bearer x.y.z", "https://evil.example/", "xchunked")),
  fc.tuple(fc.constant("Host"), fc.constantFrom(...HOSTS)),
)

const COOKIE_NAMES = [SESSION, SESSION, `${SESSION}.0`, `${SESSION}.1`, CSRF, CSRF, "authjs.callback-url", "authjs.state", "authjs.pkce.code_verifier", "authjs.nonce", "authjs.challenge", `__Secure-${SESSION}`, "__proto__"]
const cookie = fc.tuple(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...COOKIE_NAMES) }, { weight: 1, arbitrary: junk.filter((s) => !/[;=\s]/.test(s)) }), value)

const body = fc.oneof(
  fc.record({ type: fc.constantFrom(TYPES[0], TYPES[0], TYPES[3], TYPES[4]), form: pairs(6) }),
  fc.record({ type: fc.constantFrom(TYPES[1], TYPES[2], TYPES[7]), json: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.jsonValue({ maxDepth: 2 }), text, fc.constant("@csrf")), { maxKeys: 5 })) }),
  fc.record({ type: fc.option(fc.constantFrom(...TYPES), { nil: undefined }), raw: fc.oneof(junk, fc.string({ maxLength: 300 }), fc.constantFrom('{"csrfToken":', `${"[".repeat(500)}`, "a=%&b=%zz", `{"data":${"[".repeat(2000)}${"]".repeat(2000)}}`, "x".repeat(110_000))) }),
)

export const request: fc.Arbitrary<FuzzRequest> = fc.record(
  {
    method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("GET", "POST", "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH") }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,8}$/) }),
    target,
    query: pairs(4),
    headers: fc.array(header, { maxLength: 4 }),
    cookies: fc.array(cookie, { maxLength: 4 }),
    body: fc.option(body, { nil: undefined }),
  },
  { requiredKeys: ["method", "target", "query", "headers", "cookies"] },
)

/** A genuine value, or one broken by `op` at position `at`. */
export function resolve(v: Value, genuine: Record<Genuine, string>): string {
  if ("literal" in v) return v.literal
  if ("genuine" in v) return genuine[v.genuine]
  const original = genuine[v.mutate]
  const at = original.length ? v.at % original.length : 0
  switch (v.op) {
    case "flip":
      return `${original.slice(0, at)}${original[at] === "A" ? "B" : "A"}${original.slice(at + 1)}`
    case "truncate":
      return original.slice(0, at)
    case "append":
      return `${original}${original.slice(0, at % 40)}`
    case "upper":
      return original.toUpperCase()
    case "quote":
      return `"${original}"`
    case "dots":
      return original.replace(/\./g, "%2E")
    case "segment":
      return original.split(".").filter((_, i) => i !== at % 5).join(".")
  }
}

/** The whole HTTP/1.1 request, as bytes (latin1, so raw octets survive). */
export function serialize(req: FuzzRequest, genuine: Record<Genuine, string>): Buffer {
  const query = req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(resolve(v, genuine))}`).join("&")
  const path = req.target === "*" || !query ? req.target : `${req.target}${req.target.includes("?") ? "&" : "?"}${query}`
  const lines = [`${req.method} ${path} HTTP/1.1`]
  if (!req.headers.some(([name]) => name === "Host")) lines.push("Host: app.test:3000")
  for (const [name, v] of req.headers) lines.push(`${name}: ${clean(v)}`)
  if (req.cookies.length) lines.push(`Cookie: ${req.cookies.map(([name, v]) => `${name}=${clean(resolve(v, genuine)).replace(/;/g, "")}`).join("; ")}`)
  let payload = Buffer.alloc(0)
  if (req.body) {
    if (req.body.form) payload = Buffer.from(req.body.form.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(resolve(v, genuine))}`).join("&"))
    else if (req.body.json !== undefined) payload = Buffer.from(JSON.stringify(req.body.json).replace(/"@csrf"/g, JSON.stringify(genuine.csrfToken)))
    else payload = Buffer.from(req.body.raw ?? "", "latin1")
    if (req.body.type) lines.push(`Content-Type: ${req.body.type}`)
    lines.push(`Content-Length: ${payload.length}`)
  }
  lines.push("Connection: close", "", "")
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), payload])
}

/** Did this request carry what a genuine sign-in or session needs? (Only then may a session be issued.) */
export function mayIssueSession(req: FuzzRequest): boolean {
  const text = JSON.stringify(req)
  const usesCookie = (name: Genuine) => req.cookies.some(([, v]) => "genuine" in v && v.genuine === name)
  const token = text.includes('"genuine":"csrfToken"') || text.includes('"@csrf"')
  return usesCookie("session") || (token && usesCookie("csrfCookie") && /correct-horse|battery-staple/.test(text))
}
