/**
 * The error classes of `gatehouse/errors`: a stable `type` from ERROR_TYPES, `name` the class
 * name, all `AuthError`s; CredentialsSignin codes; cause wrapping; default messages.
 */
import * as errors from "../../../lib/errors.js"
import { AuthError, CredentialsSignin, ERROR_TYPES, MethodNotAllowed, MissingSecret, MissingSecretError, isAuthError } from "../../../lib/errors.js"
import * as root from "../../../lib/index.js"

type ErrorClass = (new (message?: string, options?: errors.AuthErrorOptions) => AuthError) & { type?: string }

/** Every exported class with its own `type` (the ERROR_TYPES-backed ones), by export name. */
const TYPED: Array<[string, ErrorClass]> = (Object.entries(errors) as Array<[string, unknown]>).filter(
  (entry): entry is [string, ErrorClass] =>
    typeof entry[1] === "function" && entry[1].prototype instanceof AuthError && typeof (entry[1] as ErrorClass).type === "string",
)

describe("error classes", () => {
  it("there is a class for every ERROR_TYPES entry but Configuration (the plain AuthError)", () => {
    const types = new Set(TYPED.map(([, cls]) => cls.type))
    expect([...types, "Configuration"].sort()).toEqual([...ERROR_TYPES].sort())
    expect(new AuthError("x").type).toBe("Configuration")
  })

  it.each(TYPED)("%s: type matches, name is the class name, instanceof AuthError and Error", (_exportName, cls) => {
    const error = new cls("something happened")
    expect(error.type).toBe(cls.type)
    expect(ERROR_TYPES).toContain(error.type)
    expect(error.name).toBe(cls.name)
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toBeInstanceOf(Error)
    expect(error).toBeInstanceOf(cls)
    expect(isAuthError(error)).toBe(true)
    expect(error.message).toBe("something happened")
  })

  it("the package root exports the same classes", () => {
    expect(root.InvalidOption).toBe(errors.InvalidOption)
    expect(root.CredentialsSignin).toBe(CredentialsSignin)
  })

  it("a subclass without its own static type inherits its parent's type and has its own name", () => {
    class WrongPassword extends CredentialsSignin {}
    const error = new WrongPassword()
    expect(error.type).toBe("CredentialsSignin")
    expect(error.name).toBe("WrongPassword")
  })

  it("isAuthError is false for other values", () => {
    expect(isAuthError(new Error("x"))).toBe(false)
    expect(isAuthError({ type: "AccessDenied", message: "x" })).toBe(false)
  })
})

describe("CredentialsSignin", () => {
  it('has the default code "credentials" and a default message', () => {
    const error = new CredentialsSignin()
    expect(error.code).toBe("credentials")
    expect(error.type).toBe("CredentialsSignin")
    expect(error.message).toBeTruthy()
  })

  it("takes a code through its options", () => {
    const error = new CredentialsSignin("Wrong one-time code", { code: "otp" })
    expect(error.code).toBe("otp")
    expect(error.message).toBe("Wrong one-time code")
  })

  it("takes a code through a subclass field", () => {
    class LockedAccount extends CredentialsSignin {
      override code = "locked"
    }
    const error = new LockedAccount()
    expect(error.code).toBe("locked")
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect(error.name).toBe("LockedAccount")
  })
})

describe("cause and message", () => {
  it("an Error cause is wrapped as { err }", () => {
    const inner = new TypeError("fetch failed")
    const error = new errors.AdapterError("adapter failed", { cause: inner })
    expect(error.cause).toEqual({ err: inner })
    expect(error.cause?.err).toBe(inner)
  })

  it("a record cause is kept as it is", () => {
    const cause = { provider: "github", status: 500 }
    expect(new errors.OAuthCallbackError("x", { cause }).cause).toBe(cause)
  })

  it("no cause: none is set", () => {
    expect(new errors.AccessDenied("x").cause).toBeUndefined()
  })

  it("without a message, a default naming the type", () => {
    expect(new errors.AccessDenied().message).toBe("AccessDenied: see the server log for details")
    expect(new errors.UntrustedHost("").message).toBe("UntrustedHost: see the server log for details")
    expect(new AuthError().message).toBe("Configuration: see the server log for details")
  })

  it("MissingSecret is an alias of MissingSecretError", () => {
    expect(MissingSecret).toBe(MissingSecretError)
    const error = new MissingSecret()
    expect(error).toBeInstanceOf(MissingSecretError)
    expect(error.type).toBe("MissingSecret")
    expect(error.name).toBe("MissingSecretError")
  })

  it("MethodNotAllowed keeps the allowed methods", () => {
    const error = new MethodNotAllowed("no", { allow: "GET, HEAD" })
    expect(error.allow).toBe("GET, HEAD")
    expect(error.type).toBe("MethodNotAllowed")
  })
})
