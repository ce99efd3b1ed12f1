/**
 * Configuration validation, one test per rule: providers, secret, session, jwt, callbacks,
 * events, logLevel and basePath. Every refusal is a named error whose `type` is stable and whose
 * message names the option path and the value received (README "Options").
 * Pages, theme, cookies, trustHost, the markers and redirectProxyUrl: validate-ui.test.ts.
 */
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import { jest } from "@jest/globals"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { DuplicateProviderId, InvalidOption, MissingAdapter, MissingAuthorize, UnsupportedStrategy } from "../../../lib/errors.js"
import { credentials } from "../../helpers/app.js"
import { config, DEV_ENV, expectConfigError, resolveWith } from "./support.js"

const bare = (provider: Record<string, unknown>) => config({ providers: [provider] })
const provider = (fields: Record<string, unknown>) => ({ id: "custom", name: "Custom", type: "credentials", authorize: () => null, ...fields })

describe("providers", () => {
  it.each([
    ["a string", "credentials", '"credentials"'],
    ["missing", undefined, "undefined"],
    ["an object", { credentials: true }, '{"credentials":true}'],
  ])("must be a list (%s)", (_label, providers, shown) => {
    expectConfigError(config({ providers }), InvalidOption, "InvalidOption", ["providers", shown])
  })

  it.each([
    ["a number", 42, "42"],
    ["null", null, "null"],
    ["a list", ["x"], '["x"]'],
  ])("each entry must be an object (%s)", (_label, entry, shown) => {
    expectConfigError(config({ providers: [credentials(), entry] }), InvalidOption, "InvalidOption", ["providers[1]", shown])
  })

  it("a factory must return an object", () => {
    expectConfigError(config({ providers: [() => "nope"] }), InvalidOption, "InvalidOption", ["providers[0]", '"nope"'])
  })

  it.each([
    ["a quote", 'a"b'],
    ["empty", ""],
    ["65 characters", "a".repeat(65)],
    ["a slash", "a/b"],
    ["a space", "git hub"],
    ["not a string", 7],
  ])("id must be 1-64 letters, digits, - or _ (%s)", (_label, id) => {
    expectConfigError(bare(provider({ id })), InvalidOption, "InvalidOption", ["providers[0].id", JSON.stringify(id)])
  })

  it("accepts a 64-character id with letters, digits, - and _", () => {
    const id = `Ab_-9${"x".repeat(59)}`
    expect(id).toHaveLength(64)
    expect(resolveConfig(bare(provider({ id })), DEV_ENV).providers.byId.has(id)).toBe(true)
  })

  it("type must be a known provider type", () => {
    expectConfigError(bare(provider({ type: "saml" })), InvalidOption, "InvalidOption", ["providers[0].type", '"saml"'])
  })

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["missing", undefined],
  ])("name must be a non-empty string (%s)", (_label, name) => {
    expectConfigError(bare(provider({ name })), InvalidOption, "InvalidOption", ["providers[0].name", JSON.stringify(name) ?? "undefined"])
  })

  it("a duplicate id is a DuplicateProviderId", () => {
    const cfg = config({ providers: [credentials(), provider({ id: "mail" }), credentials({ name: "Again" })] })
    expectConfigError(cfg, DuplicateProviderId, "DuplicateProviderId", ["providers[2].id", '"credentials"'])
  })

  it("ids are case-sensitive: GitHub and github are two providers", () => {
    const resolved = resolveConfig(config({ providers: [provider({ id: "GitHub" }), provider({ id: "github" })] }), DEV_ENV)
    expect([...resolved.providers.byId.keys()]).toEqual(["GitHub", "github"])
  })

  it("a credentials provider without authorize is a MissingAuthorize", () => {
    const cfg = bare({ id: "login", name: "Login", type: "credentials", credentials: {} })
    expectConfigError(cfg, MissingAuthorize, "MissingAuthorize", ["providers[0]", '"login"', "authorize"])
  })

  it("provider factories are called, without arguments, and their result is used", () => {
    const factory = jest.fn((...args: unknown[]) => {
      expect(args).toEqual([])
      return credentials({ id: "from-factory" })
    })
    const resolved = resolveConfig(config({ providers: [factory] }), DEV_ENV)
    expect(factory).toHaveBeenCalledTimes(1)
    expect(resolved.providers.list.map((p) => p.id)).toEqual(["from-factory"])
    expect(resolved.providers.byId.get("from-factory")?.type).toBe("credentials")
  })
})

describe("secret", () => {
  it("an empty string is refused", () => {
    expectConfigError(config({ secret: "" }), InvalidOption, "InvalidOption", ["secret", '(got "")'])
  })

  it("an empty list is refused", () => {
    expectConfigError(config({ secret: [] }), InvalidOption, "InvalidOption", ["secret", "(got [])"])
  })

  it.each([
    ["a number", 42, "42"],
    ["an empty string", "", '""'],
    ["null", null, "null"],
  ])("every entry of a list must be a non-empty string (%s)", (_label, entry, shown) => {
    expectConfigError(config({ secret: ["first-secret", entry] }), InvalidOption, "InvalidOption", ["secret[1]", `(got ${shown})`])
  })

  it("a list of strings is accepted, in order", () => {
    expect(resolveWith({ secret: ["new-secret", "old-secret"] }).secrets).toEqual(["new-secret", "old-secret"])
  })
})

describe("session", () => {
  it("an unknown strategy is an UnsupportedStrategy", () => {
    expectConfigError(config({ session: { strategy: "redis" } }), UnsupportedStrategy, "UnsupportedStrategy", ["session.strategy", '"redis"'])
  })

  it('"database" without an adapter is a MissingAdapter', () => {
    expectConfigError(config({ session: { strategy: "database" } }), MissingAdapter, "MissingAdapter", ["session.strategy", '"database"', "adapter"])
  })

  it('"database" with an adapter, and "jwt" as the old name of "cookie", are accepted', () => {
    expect(resolveWith({ adapter: MemoryAdapter(), session: { strategy: "database" } }).session.strategy).toBe("database")
    expect(resolveWith({ session: { strategy: "jwt" } }).session.strategy).toBe("cookie")
  })

  it.each([
    ["0", 0, "(got 0)"],
    ["-5", -5, "(got -5)"],
    ["NaN", Number.NaN, "(got NaN)"],
    ["Infinity", Number.POSITIVE_INFINITY, "(got Infinity)"],
    ['"10"', "10", '(got "10")'],
    ["an invalid Date", new Date("not a date"), "invalid"],
  ])("maxAge %s is an InvalidOption naming the value", (_label, maxAge, shown) => {
    expectConfigError(config({ session: { maxAge } }), InvalidOption, "InvalidOption", ["session.maxAge", shown])
  })

  it("maxAge: a valid Date is accepted", () => {
    const end = new Date(Date.now() + 7 * 24 * 3600 * 1000)
    expect(resolveWith({ session: { maxAge: end } }).session.absoluteExpires?.getTime()).toBe(end.getTime())
  })

  it("updateAge -1 is an InvalidOption", () => {
    expectConfigError(config({ session: { updateAge: -1 } }), InvalidOption, "InvalidOption", ["session.updateAge", "(got -1)"])
  })

  it("updateAge NaN is an InvalidOption naming the value", () => {
    expectConfigError(config({ session: { updateAge: Number.NaN } }), InvalidOption, "InvalidOption", ["session.updateAge", "(got NaN)"])
  })

  it("updateAge 0 is accepted (the expiry moves on every access)", () => {
    expect(resolveWith({ session: { updateAge: 0 } }).session.updateAge).toBe(0)
  })

  it("cacheSize defaults to 10000 and takes a positive integer (issue #36)", () => {
    expect(resolveWith().session.cacheSize).toBe(10_000)
    expect(resolveWith({ session: { cacheSize: 50 } }).session.cacheSize).toBe(50)
  })

  it.each([0, -1, 1.5, Number.NaN, "100"])("cacheSize %p is an InvalidOption", (value) => {
    expectConfigError(config({ session: { cacheSize: value } }), InvalidOption, "InvalidOption", ["session.cacheSize"])
  })

  it.each(["generateSessionToken", "seal", "unseal"])("session.%s must be a function", (name) => {
    expectConfigError(config({ session: { [name]: "not-a-function" } }), InvalidOption, "InvalidOption", [`session.${name}`, '"not-a-function"'])
  })

  it("session must be an object", () => {
    expectConfigError(config({ session: "cookie" }), InvalidOption, "InvalidOption", ["session", '"cookie"'])
  })
})

describe("jwt (deprecated)", () => {
  it.each(["encode", "decode"])("jwt.%s must be a function", (name) => {
    expectConfigError(config({ jwt: { [name]: "jose" } }), InvalidOption, "InvalidOption", [`jwt.${name}`, '"jose"'])
  })

  it("jwt.maxAge must be a positive number", () => {
    expectConfigError(config({ jwt: { maxAge: -1 } }), InvalidOption, "InvalidOption", ["jwt.maxAge", "(got -1)"])
  })
})

describe("callbacks and events", () => {
  it("an unknown callback name is refused (signin is not signIn)", () => {
    expectConfigError(config({ callbacks: { signin: () => true } }), InvalidOption, "InvalidOption", ["callbacks.signin", '"signin"'])
  })

  it("a callback that is not a function is refused", () => {
    expectConfigError(config({ callbacks: { signIn: "yes" } }), InvalidOption, "InvalidOption", ["callbacks.signIn", '"yes"'])
  })

  it("an unknown event name is refused", () => {
    expectConfigError(config({ events: { signin: () => undefined } }), InvalidOption, "InvalidOption", ["events.signin", '"signin"'])
  })

  it("an event that is not a function is refused", () => {
    expectConfigError(config({ events: { signOut: 1 } }), InvalidOption, "InvalidOption", ["events.signOut", "(got 1)"])
  })

  it("every documented callback and event name is accepted", () => {
    const fn = () => undefined
    const callbacks = Object.fromEntries(["signIn", "redirect", "jwt", "session", "authorized"].map((name) => [name, fn]))
    const events = Object.fromEntries(["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session"].map((name) => [name, fn]))
    const resolved = resolveWith({ callbacks, events })
    expect(resolved.callbacks.jwt).toBe(fn)
    expect(Object.keys(resolved.events)).toHaveLength(6)
  })
})

describe("logLevel", () => {
  it("an unknown level is refused", () => {
    expectConfigError(config({ logLevel: "debug" }), InvalidOption, "InvalidOption", ["logLevel", '"debug"'])
  })
})

describe("basePath", () => {
  it.each([
    ["without a leading slash", "auth"],
    ["with //", "/api//auth"],
    ["protocol-relative", "//evil.example"],
    ["with a space", "/my auth"],
  ])("is refused %s", (_label, basePath) => {
    expectConfigError(config({ basePath }), InvalidOption, "InvalidOption", ["basePath", JSON.stringify(basePath)])
  })

  it("a trailing slash is dropped", () => {
    expect(resolveWith({ basePath: "/api/auth/" }).basePath).toBe("/api/auth")
  })
})
