/**
 * The message tables (lib/core/error-messages.ts, the core's and every capability's, and
 * lib/pages/messages.ts): `own()` reads only a table's own entries, and
 * `publicMessage()` gives a specific, client-safe text for every type a client can be shown.
 */
import { DEFAULT_ERROR_PAGE, DEFAULT_SIGNIN_ERROR, ERROR_PAGES, SIGNIN_ERRORS, publicMessage } from "../../../lib/core/error-messages.js"
import { own } from "../../../lib/pages/messages.js"

const PROTOTYPE_KEYS = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "__defineGetter__", "__lookupGetter__", "prototype"]

describe("own", () => {
  const table: Readonly<Record<string, number>> = Object.freeze({ a: 1, b: 0 })

  test("returns the table's own entries, including falsy values", () => {
    expect(own(table, "a")).toBe(1)
    expect(own(table, "b")).toBe(0)
  })

  test("returns undefined for a missing key and for no key", () => {
    expect(own(table, "c")).toBeUndefined()
    expect(own(table, undefined)).toBeUndefined()
    expect(own(table, "")).toBeUndefined()
  })

  test.each(PROTOTYPE_KEYS)("returns undefined for the inherited key %s", (key) => {
    expect(own(table, key)).toBeUndefined()
    expect(own(SIGNIN_ERRORS, key)).toBeUndefined()
    expect(own(ERROR_PAGES, key)).toBeUndefined()
  })

  test("works on a table without a prototype, and on one that shadows hasOwnProperty", () => {
    const bare = Object.assign(Object.create(null) as Record<string, string>, { x: "y" })
    expect(own(bare, "x")).toBe("y")
    expect(own(bare, "hasOwnProperty")).toBeUndefined()
    const tricky: Record<string, unknown> = { hasOwnProperty: () => true, x: 1 }
    expect(own(tricky, "y")).toBeUndefined()
    expect(own(tricky, "x")).toBe(1)
  })
})

describe("the tables", () => {
  test("are frozen", () => {
    expect(Object.isFrozen(SIGNIN_ERRORS)).toBe(true)
    expect(Object.isFrozen(ERROR_PAGES)).toBe(true)
    expect(Object.isFrozen(DEFAULT_ERROR_PAGE)).toBe(true)
  })

  test("the sign-in table has exactly the README's values", () => {
    expect(Object.keys(SIGNIN_ERRORS).sort()).toEqual(
      ["Signin", "OAuthSignin", "OAuthCallbackError", "OAuthCreateAccount", "EmailCreateAccount", "Callback", "OAuthAccountNotLinked", "EmailSignin", "CredentialsSignin", "SessionRequired", "MissingCSRF", "WebAuthnVerificationError", "RateLimited",
        // Issue #19: the refusals of a one-time email code that need a new email.
        "EmailCodeExpired", "EmailCodeLocked", "EmailCodeNotBound",
        // Issue #12: a proving sign-in refused because an unproven account holds the address.
        "UnverifiedAccountExists",
        // Issue #15: deleting the account after a stale sign-in.
        "RecentSignInRequired",
        // Issue #18: a password sign-in before the address is verified.
        "EmailNotVerified",
        // Issue #16: the second factor refused, or its pending sign-in expired.
        "TwoFactorCodeInvalid", "TwoFactorCodeReplayed", "TwoFactorExpired", "RecoveryCodeUsed",
        // Issue #24: a passkey for a new address, refused until the address is proved.
        "EmailProofRequired",
        // Issue #28: single sign-on refused or required.
        "SsoNotConfigured", "SsoRequired", "SsoAccountNotLinked", "SsoConnectionNotFound",
        // Issue #29: the directory deactivated the person (SCIM).
        "SsoUserDeactivated",
        // Issue #33: a guarded door refused (no, a wrong or a used challenge answer; a vendor outage, closed).
        "BotChallengeFailed", "BotCheckUnavailable"].sort(),
    )
  })

  test("the error-page table has exactly Configuration 500, AccessDenied 403, Verification 403, AdapterError 503, and the provider failures of issue #13", () => {
    expect(Object.fromEntries(Object.entries(ERROR_PAGES).map(([key, value]) => [key, value.status]))).toEqual({
      Configuration: 500, AccessDenied: 403, Verification: 403, AdapterError: 503, StoreUnavailable: 503,
      ProviderRedirectRefused: 502, ProviderResponseTooLarge: 502, ProviderTimeout: 504,
      // Issue #15: the account page without an adapter.
      AccountPageUnavailable: 501,
      // Issue #24: the shared store did not take a revocation of other sessions (retried until written).
      RevocationPending: 503,
      // Issue #27: organizations (a browser never gets their refusals as raw JSON).
      OrganizationRequired: 403, PermissionDenied: 403, OrganizationNotFound: 404, MemberNotFound: 404, LastOwner: 409, SlugTaken: 409,
      AlreadyMember: 409, UnknownRole: 400, RoleInUse: 409, InvitationInvalid: 410, InvitationMismatch: 403, OrganizationsUnavailable: 404,
      // Issue #28: enterprise sign-in.
      SsoUnavailable: 404, SsoConnectionNotFound: 404, SsoResponseInvalid: 400, SsoReplay: 400, SsoUnsolicited: 400,
      DomainTaken: 409, DomainNotVerified: 409, InvalidSsoConnection: 400,
      // Issue #30: the admin tools (a browser never gets their refusals as raw JSON).
      AdminRequired: 403, AdminUnavailable: 404, UserNotFound: 404, EmailInUse: 409, UserBanned: 403,
      ImpersonationDenied: 403, ImpersonationRestricted: 403, NotImpersonating: 409,
      // Issue #31: service tokens (API routes: JSON for every client; the texts serve the error page if linked to).
      ServiceTokenInvalid: 401, ServiceTokenScopeDenied: 403, ServiceTokensUnavailable: 404,
      // Issue #31: API keys (a key refused, a key not found, the option or this kind of key off).
      ApiKeyInvalid: 401, ApiKeyExpired: 401, ApiKeyRequired: 401, InsufficientScope: 403, ApiKeyNotFound: 404, ApiKeysUnavailable: 404,
      AccessTokenInvalid: 401, AccessTokenRequired: 401, IdentityProviderUnavailable: 404, InteractionNotFound: 400, OidcClientNotFound: 404,
    })
    expect(DEFAULT_ERROR_PAGE.status).toBe(200)
  })

  test("no message contains markup or a placeholder to fill in", () => {
    const texts = [...Object.values(SIGNIN_ERRORS), DEFAULT_SIGNIN_ERROR, ...Object.values(ERROR_PAGES).flatMap((p) => [p.heading, p.message]), DEFAULT_ERROR_PAGE.heading, DEFAULT_ERROR_PAGE.message]
    for (const text of texts) {
      expect(text).not.toMatch(/[<>{}$%]/)
      expect(text.trim()).toBe(text)
      expect(text.length).toBeGreaterThan(0)
    }
  })
})

describe("publicMessage", () => {
  test.each(Object.keys(SIGNIN_ERRORS).filter((type) => type !== "SessionRequired"))("%s: the sign-in page's message", (type) => {
    expect(publicMessage(type)).toBe(SIGNIN_ERRORS[type])
  })

  test.each(["Configuration", "AccessDenied", "Verification"])("%s: the error page's message", (type) => {
    expect(publicMessage(type)).toBe(ERROR_PAGES[type]!.message)
  })

  test.each([
    ["InvalidRequest", "The request could not be understood."],
    ["PayloadTooLarge", "The request body is too large."],
    ["UnsupportedMediaType", "Send the body as application/x-www-form-urlencoded or application/json in UTF-8."],
    ["MethodNotAllowed", "This action does not accept that HTTP method."],
    ["UnknownAction", "There is no such action."],
    ["InvalidProvider", "There is no such sign-in provider."],
  ])("%s (protocol error): its own message", (type, message) => {
    expect(publicMessage(type)).toBe(message)
  })

  test("SessionRequired (the JSON 401 of requireAuth) gets the API wording of PROTOCOL_MESSAGES", () => {
    // PROTOCOL_MESSAGES has a SessionRequired entry written for JSON bodies ("Sign in to use this
    // resource."), but publicMessage consults SIGNIN_ERRORS first, so that entry is unreachable and
    // API clients get the page wording "Please sign in to see that page.".
    expect(publicMessage("SessionRequired")).toBe("Sign in to use this resource.")
  })

  test("every documented type a client can be shown has a specific message (not the generic one)", () => {
    const shown = [
      // flow errors, as shown (README "Errors": OAuthSignInError is shown as OAuthSignin, ...)
      "CredentialsSignin",
      "MissingCSRF",
      "AccessDenied",
      "Verification",
      "OAuthSignin",
      "OAuthCallbackError",
      "OAuthAccountNotLinked",
      "EmailSignin",
      "Configuration",
      // protocol errors
      "InvalidRequest",
      "PayloadTooLarge",
      "UnsupportedMediaType",
      "MethodNotAllowed",
      "UnknownAction",
      "InvalidProvider",
      // requireAuth
      "SessionRequired",
    ]
    for (const type of shown) {
      const message = publicMessage(type)
      expect(typeof message).toBe("string")
      expect(message).not.toBe(DEFAULT_ERROR_PAGE.message)
    }
    expect(new Set(shown.map(publicMessage)).size).toBe(shown.length)
  })

  test.each(["Nope", "", "JWTSessionError", "<script>", ...PROTOTYPE_KEYS])("unknown or inherited type %j: the generic message, never the type", (type) => {
    expect(publicMessage(type)).toBe(DEFAULT_ERROR_PAGE.message)
  })
})
