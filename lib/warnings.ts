/**
 * Warning codes. Each is logged at most once per resolved configuration through `logger.warn`.
 * The code is stable; the sentence printed next to it by the default logger says what to change.
 */
export const WARNINGS = {
  "debug-enabled": "Verbose logging is on; it can print tokens and profile data. Turn it off in production.",
  "debug-deprecated": "The `debug` option is deprecated: use `logLevel: \"verbose\"`.",
  "jwt-encode-deprecated": "`jwt.encode` is deprecated: use `session.seal`.",
  "jwt-decode-deprecated": "`jwt.decode` is deprecated: use `session.unseal`.",
  "jwt-maxage-deprecated": "`jwt.maxAge` is deprecated: use `session.maxAge`.",
  "jwt-isnewuser-deprecated": "`isNewUser` in the jwt callback is deprecated: test `trigger === \"signUp\"`.",
  "csrf-disabled": "CSRF protection is off (`skipCSRFCheck`). Only do this when the framework protects every POST itself.",
  "dev-secret-generated": "No secret is set; a random one was generated for this process, so sessions end when it restarts. Set AUTH_SECRET.",
  "env-url-basepath-redundant": "`basePath` repeats the path of AUTH_URL; one of them is enough.",
  "env-url-basepath-mismatch": "The path of AUTH_URL differs from `basePath`; AUTH_URL's path is ignored.",
  "basepath-mount-mismatch":
    "authRouter is mounted at a path other than `basePath`: without `basePath` the router's pages follow the mount path but requireAuth and the server-side helpers link to `basePath`; with it, links point where this router does not answer. Set `basePath` to the mount path, or mount the router at `basePath`.",
  // What the diagnostics page finds in a request, logged once (lib/actions/diagnostics-watch.ts);
  // the line adds this request's details and the fix.
  "forwarded-not-trusted-by-express":
    "Requests carry X-Forwarded-Proto or X-Forwarded-Host, but Express does not trust the proxy that sends them, so Gatehouse ignores them and builds URLs from the Host header and the connection.",
  "forwarded-proto-ignored": "Requests arrive over HTTPS but AUTH_URL is http://: callback URLs are http:// and cookies lack Secure.",
  "auth-url-origin-mismatch": "Requests arrive on an origin other than AUTH_URL's: redirects go to AUTH_URL's origin and sign-in does not stick on this one.",
  "secure-cookies-over-http": "useSecureCookies is true but requests arrive over plain http: browsers drop the Secure session and CSRF cookies.",
  "insecure-cookies-over-https": "useSecureCookies is false although requests arrive over HTTPS: the session cookie is sent without Secure.",
  "forwarded-host-missing": "X-Forwarded-Proto is sent without X-Forwarded-Host and the Host header looks like the proxy's upstream: every URL Gatehouse writes points there.",
  "trusthost-without-url":
    "trustHost is on and AUTH_URL is not set: links Gatehouse writes (sign-in, callbacks, emails) follow the Host and X-Forwarded-Host headers. Only safe behind a proxy that overwrites them; set AUTH_URL to be sure.",
  "memory-adapter-production":
    "The memory adapter keeps users and sessions in this process only: they vanish on restart and are not shared between instances. Use the SQL or MongoDB adapter in production.",
  "session-revocation-local":
    "Cookie sessions with an adapter that does not store cookie-session revocations, and no `store`: a session signed out or revoked on one process stays valid on the others. Configure `store: RedisStore(...)`, or use Gatehouse's SQL or MongoDB adapter.",
  "session-maxage-past": "`session.maxAge` is a date in the past: every session is already expired.",
  "notices-no-mail":
    "No way to send security notices (password or email changed, new sign-in methods): no email provider with a `server` and no `notices.sendMail`. They are skipped; configure one, or set `notices: false`.",
  "two-factor-store-local":
    "Two-factor sign-in without a `store`: a TOTP code, a pending sign-in or enrolment, and the limit on code tries are single-use only within this process, so on several processes a code can be used twice and the tries multiply. Configure `store: RedisStore(...)`.",
} as const

export type WarningCode = keyof typeof WARNINGS
