/**
 * Issue #26, start-up checks: a secret too short for production, and an OAuth provider that
 * authenticates with a client secret it was not given, are refused when the configuration is
 * resolved (so `authRouter(config)` throws at start-up), each with a named error that says what
 * to do; what is fine (development, a public PKCE client) still starts.
 */
import { describe, expect, it } from "@jest/globals"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { InvalidOption, MissingSecretError } from "../../../lib/errors.js"
import GitHub from "../../../lib/providers/github.js"
import OIDC from "../../../lib/providers/oidc.js"
import { main, newSecret } from "../../../adapters/sql/cli.js"
import { config, DEV_ENV, expectConfigError, PROD_ENV } from "./support.js"

const PROD = { ...PROD_ENV }
const bytes = (n: number) => "k".repeat(n)

describe("the secret in production", () => {
  it("a secret of 31 bytes is refused with MissingSecret, which says how long it is and how to make one", () => {
    const error = expectConfigError(config({ secret: bytes(31) }), MissingSecretError, "MissingSecret", ["the `secret` option is 31 bytes long", "at least 32 bytes", "npx gatehouse secret", "openssl rand -base64 33"], PROD)
    expect(error.message).not.toContain(bytes(31))
  })

  it("AUTH_SECRET of 20 bytes is refused, naming AUTH_SECRET", () => {
    const cfg: Record<string, unknown> = config()
    delete cfg.secret
    expectConfigError(cfg, MissingSecretError, "MissingSecret", ["AUTH_SECRET is 20 bytes long"], { ...PROD, AUTH_SECRET: bytes(20) })
  })

  it("bytes, not characters: 11 three-byte characters (33 bytes) pass, 10 (30 bytes) do not", () => {
    expect(() => resolveConfig(config({ secret: "€".repeat(11) }), PROD)).not.toThrow()
    expectConfigError(config({ secret: "€".repeat(10) }), MissingSecretError, "MissingSecret", ["30 bytes"], PROD)
  })

  it("an older secret kept for rotation is checked too: it still opens sessions", () => {
    expectConfigError(config({ secret: [bytes(40), "old-and-short"] }), MissingSecretError, "MissingSecret", ["secret[1] is 13 bytes long"], PROD)
  })

  it("32 bytes start; development accepts a short secret; the CLI's secret is 44 base64 characters of 33 bytes", () => {
    expect(() => resolveConfig(config({ secret: bytes(32) }), PROD)).not.toThrow()
    expect(() => resolveConfig(config({ secret: "dev" }), DEV_ENV)).not.toThrow()
    const made = newSecret()
    expect(made).toMatch(/^[A-Za-z0-9+/]{44}$/)
    expect(Buffer.from(made, "base64")).toHaveLength(33)
    expect(() => resolveConfig(config({ secret: made }), PROD)).not.toThrow()
  })

  it("`gatehouse secret` prints a new secret each time", async () => {
    const printed: string[] = []
    const log = console.log
    console.log = (line: string) => void printed.push(line)
    try {
      expect(await main(["secret"])).toBe(0)
      expect(await main(["secret"])).toBe(0)
    } finally {
      console.log = log
    }
    expect(printed).toHaveLength(2)
    expect(printed[0]).toMatch(/^[A-Za-z0-9+/]{44}$/)
    expect(printed[0]).not.toBe(printed[1])
  })
})

describe("an OAuth provider's client secret", () => {
  it("GitHub (client_secret_post) with an id but no secret is refused with InvalidOption naming the option, the env variable and the method", () => {
    expectConfigError(config({ providers: [GitHub({ clientId: "id" })] }), InvalidOption, "InvalidOption", [
      'providers[0] ("github").clientSecret is required',
      "client_secret_post",
      "AUTH_GITHUB_SECRET",
      'token_endpoint_auth_method: "none"',
    ])
  })

  it("the secret from AUTH_GITHUB_SECRET is enough", () => {
    expect(() => resolveConfig(config({ providers: [GitHub({ clientId: "id" })] }), { ...DEV_ENV, AUTH_GITHUB_SECRET: "from-env" })).not.toThrow()
  })

  it("a public client (no method, no secret: PKCE with `none`) starts, and so does a provider set to `none`", () => {
    const publicOidc = OIDC({ id: "corp", name: "Corp", issuer: "https://sso.example.com", clientId: "spa" })
    expect(() => resolveConfig(config({ providers: [publicOidc] }), DEV_ENV)).not.toThrow()
    expect(() => resolveConfig(config({ providers: [GitHub({ clientId: "id", client: { token_endpoint_auth_method: "none" } })] }), DEV_ENV)).not.toThrow()
  })

  it("an explicit client_secret_basic without a secret is refused; private_key_jwt without a key is refused", () => {
    const basic = OIDC({ id: "corp", name: "Corp", issuer: "https://sso.example.com", clientId: "web", client: { token_endpoint_auth_method: "client_secret_basic" } })
    expectConfigError(config({ providers: [basic] }), InvalidOption, "InvalidOption", ['providers[0] ("corp").clientSecret is required', "client_secret_basic", "AUTH_CORP_SECRET"])
    const keyed = OIDC({ id: "corp", name: "Corp", issuer: "https://sso.example.com", clientId: "web", client: { token_endpoint_auth_method: "private_key_jwt" } })
    expectConfigError(config({ providers: [keyed] }), InvalidOption, "InvalidOption", ['providers[0] ("corp").privateKey is required', "private_key_jwt"])
  })
})
