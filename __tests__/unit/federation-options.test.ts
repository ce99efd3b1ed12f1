/** Issue #17: a provider's sign-out options are checked at start-up, each mistake naming the option. */
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { InvalidOption } from "../../lib/errors.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import { SECRET } from "../helpers/app.js"

const provider = (extra: Record<string, unknown>, type: "oidc" | "oauth" = "oidc") =>
  ({ id: "idp", name: "IdP", type, issuer: "https://idp.example", clientId: "c", clientSecret: "s", ...extra }) as OAuthProviderConfig

const start = (extra: Record<string, unknown>, type?: "oidc" | "oauth") => () => resolveConfig({ secret: SECRET, providers: [provider(extra, type)], logLevel: "silent" })

test.each([
  [{ federatedSignOut: "yes" }, /providers\[0\] \("idp"\)\.federatedSignOut must be true, false or \{ postLogoutRedirectUri \}/],
  [{ federatedSignOut: { postLogoutRedirectUri: "/home" } }, /federatedSignOut\.postLogoutRedirectUri must be an absolute http\(s\) URL \(got "\/home"\)/],
  [{ revokeTokensOnSignOut: "true" }, /revokeTokensOnSignOut must be true or false/],
])("%j is refused at start-up", (extra, message) => {
  expect(start(extra)).toThrow(InvalidOption)
  expect(start(extra)).toThrow(message)
})

test("federatedSignOut on a plain OAuth 2.0 provider is refused (RP-Initiated Logout is OpenID Connect)", () => {
  expect(start({ federatedSignOut: true }, "oauth")).toThrow(/federatedSignOut needs an OpenID Connect provider/)
})

test("true, false, an object with an http(s) URL, and revokeTokensOnSignOut on an OAuth provider start", () => {
  expect(start({ federatedSignOut: true, revokeTokensOnSignOut: true })).not.toThrow()
  expect(start({ federatedSignOut: false })).not.toThrow()
  expect(start({ federatedSignOut: { postLogoutRedirectUri: "https://app.example/bye" } })).not.toThrow()
  expect(start({ revokeTokensOnSignOut: true }, "oauth")).not.toThrow()
})
