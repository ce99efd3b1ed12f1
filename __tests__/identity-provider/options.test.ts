/**
 * The `oidcProvider` option (issue #32) is checked once, at start-up: a mistake is a named error
 * naming the option, and what is resolved is what the provider is built from.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { resolveOidcProvider } from "../../lib/identity-provider/options.js"
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../../lib/errors.js"
import type { Adapter } from "../../lib/adapters.js"

const adapter = MemoryAdapter()
const resolve = (option: unknown, organizations = false, given: Adapter | undefined = adapter) => resolveOidcProvider(option, given, organizations)
const web = { client_id: "web", client_secret: "s".repeat(32), redirect_uris: ["https://app.example/cb"] }

describe("the oidcProvider option", () => {
  it("is off unless given, and true turns it on with the defaults", () => {
    expect(resolve(undefined)).toBeUndefined()
    expect(resolve(false)).toBeUndefined()
    const on = resolve(true)!
    expect(on.path).toBe("oidc")
    expect([...on.scopes]).toEqual(["openid", "profile", "email", "offline_access"])
    expect(on.registration.enabled).toBe(false)
    expect(on.deviceFlow).toBe(true)
    expect(on.clientCredentials).toBe(true)
    expect(on.logoutEndsSession).toBe(true)
    expect(on.ttl.accessToken).toBe(3600)
    expect(Object.isFrozen(on)).toBe(true)
  })

  it("adds the organization scope with organizations, the resources' scopes and scopeClaims' scopes", () => {
    const on = resolve({ resources: { "https://api.example/": { scopes: ["notes:read"] } }, scopeClaims: { billing: ["plan"] } }, true)!
    expect(on.scopes).toEqual(expect.arrayContaining(["organization", "notes:read", "billing"]))
    expect(on.resources.get("https://api.example/")).toMatchObject({ audience: "https://api.example/", accessTokenTtl: 3600, scopes: ["notes:read"] })
    // Registered clients get every scope but organization's by default.
    expect(on.registration.scopes).not.toContain("organization")
  })

  it("resolves a client without a secret as public and one with a secret as client_secret_basic", () => {
    const on = resolve({ clients: [web, { client_id: "spa", redirect_uris: ["https://app.example/cb"] }] })!
    expect(on.clients.map((client) => client.token_endpoint_auth_method)).toEqual(["client_secret_basic", "none"])
  })

  it.each<[string, unknown, RegExp]>([
    ["a string", "yes", /oidcProvider must be true or an object/],
    ["an unknown option", { clientz: [] }, /oidcProvider.clientz is not an option/],
    ["a path with a slash", { path: "a/b" }, /oidcProvider.path/],
    ["a client without an id", { clients: [{ client_secret: "s".repeat(32) }] }, /clients\[0\].client_id/],
    ["a short secret", { clients: [{ ...web, client_secret: "short" }] }, /client_secret must be at least 32/],
    ["a client twice", { clients: [web, web] }, /declared twice/],
    ["a relative redirect URI", { clients: [{ ...web, redirect_uris: ["/cb"] }] }, /redirect_uris must be a list of absolute URLs/],
    ["a resource that is not a URL", { resources: { api: { scopes: ["x"] } } }, /resource indicator must be an absolute/],
    ["a resource with a fragment", { resources: { "https://api.example/#x": { scopes: ["x"] } } }, /without a fragment/],
    ["a scope with a space", { scopes: ["a b"] }, /oidcProvider.scopes must be a list of scope names/],
    ["a ttl that is not a lifetime", { ttl: { forever: 10 } }, /oidcProvider.ttl.forever is not a lifetime/],
    ["a ttl of 1 second", { ttl: { accessToken: 1 } }, /at least 10/],
    ["claims that are not a function", { claims: {} }, /oidcProvider.claims must be a function/],
    ["a claim Gatehouse sets", { scopeClaims: { billing: ["email"] } }, /scopeClaims.billing must list claim names of your own/],
    ["skipConsent naming an unknown client", { skipConsent: ["other"] }, /skipConsent must list client ids/],
    ["a short initial access token", { registration: { initialAccessToken: "short" } }, /initialAccessToken must be a string of at least 16/],
    ["registration scopes the provider lacks", { registration: { scopes: ["admin"] } }, /registration.scopes names admin/],
    ["keys without an RSA key", { keys: [{ kty: "EC", crv: "P-256", d: "x", x: "x", y: "y" }] }, /needs an RSA key/],
    ["public keys", { keys: [{ kty: "RSA", n: "x", e: "AQAB" }] }, /private JWKs/],
  ])("refuses %s with InvalidOption naming it", (_name, option, message) => {
    expect(() => resolve(option)).toThrow(InvalidOption)
    expect(() => resolve(option)).toThrow(message)
  })

  it("needs an adapter with the storage methods", () => {
    expect(() => resolveOidcProvider(true, undefined, false)).toThrow(MissingAdapter)
    const { putOidcRecord: _dropped, ...partial } = adapter
    expect(() => resolve(true, false, partial as Adapter)).toThrow(MissingAdapterMethods)
    expect(() => resolve(true, false, partial as Adapter)).toThrow(/putOidcRecord/)
  })
})
