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
  "basepath-mount-mismatch": "authRouter is mounted at a path other than `basePath`; set `basePath` to the mount path so requireAuth and the pages link to it.",
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
