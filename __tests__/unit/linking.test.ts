/**
 * Issue #12's rules, one per test: when a provider vouches for an email address, the
 * `accountLinking` option, and the inbox an address counts against for email limits.
 */
import { describe, expect, it } from "@jest/globals"
import { claimsEmailVerified, providerVouchesForEmail } from "../../lib/linking/email-trust.js"
import { resolveAccountLinking } from "../../lib/linking/options.js"
import { canonicalMailbox } from "../../lib/providers/email/mailbox.js"
import Discord from "../../lib/providers/discord.js"
import GitHub from "../../lib/providers/github.js"
import MicrosoftEntraID from "../../lib/providers/microsoft-entra-id.js"
import Google from "../../lib/providers/google.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"

const vouches = (provider: OAuthProviderConfig, profile: Record<string, unknown>) => providerVouchesForEmail(provider as OAuthProviderConfig, profile, {})

describe("the OpenID Connect claim", () => {
  it.each([
    [true, true],
    ["true", true],
    [false, false],
    ["false", false],
    [undefined, false],
    [null, false],
    [1, false],
    ["yes", false],
  ])("email_verified %p reads as %p", (claim, expected) => {
    expect(claimsEmailVerified((claim === undefined ? {} : { email_verified: claim }) as never)).toBe(expected)
  })

  it("Google (OIDC) follows the claim", async () => {
    expect(await vouches(Google({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, { email_verified: true })).toBe(true)
    expect(await vouches(Google({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, {})).toBe(false)
  })
})

describe("providers with a rule of their own", () => {
  it("GitHub: an address in the profile is one GitHub verified; none, nothing", async () => {
    expect(await vouches(GitHub({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, { email: "octo@example.com" })).toBe(true)
    expect(await vouches(GitHub({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, { email: null })).toBe(false)
  })

  it("Discord: its `verified` flag", async () => {
    expect(await vouches(Discord({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, { verified: true })).toBe(true)
    expect(await vouches(Discord({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig, { verified: false, email_verified: true })).toBe(false)
  })

  it.each(["common", "organizations", "consumers"])("Microsoft Entra ID, tenant %s: unverified unless xms_edov", async (tenant) => {
    const entra = MicrosoftEntraID({ clientId: "x", clientSecret: "y", tenant }) as OAuthProviderConfig
    expect(await vouches(entra, { email: "a@contoso.example", email_verified: true })).toBe(false)
    expect(await vouches(entra, { email: "a@contoso.example", xms_edov: true })).toBe(true)
  })

  it("Microsoft Entra ID, one tenant (a GUID or a domain): the tenant you chose to trust vouches", async () => {
    for (const tenant of ["0b5e3a1c-2d4f-4e6a-8b9c-0d1e2f3a4b5c", "contoso.example"]) {
      expect(await vouches(MicrosoftEntraID({ clientId: "x", clientSecret: "y", tenant }) as OAuthProviderConfig, {})).toBe(true)
    }
  })

  it("the app's own emailVerified wins: a boolean or a function", async () => {
    expect(await vouches(GitHub({ clientId: "x", clientSecret: "y", emailVerified: false }) as OAuthProviderConfig, { email: "a@b.example" })).toBe(false)
    const custom = { ...(Google({ clientId: "x", clientSecret: "y" }) as OAuthProviderConfig), emailVerified: (profile: Record<string, unknown>) => profile.hd === "corp.example" }
    expect(await vouches(custom, { hd: "corp.example" })).toBe(true)
    expect(await vouches(custom, { email_verified: true })).toBe(false)
  })
})

describe("accountLinking", () => {
  it("defaults to reclaim, takes refuse, and names the option on anything else", () => {
    expect(resolveAccountLinking(undefined)).toEqual({ unverifiedEmail: "reclaim" })
    expect(resolveAccountLinking({})).toEqual({ unverifiedEmail: "reclaim" })
    expect(resolveAccountLinking({ unverifiedEmail: "refuse" })).toEqual({ unverifiedEmail: "refuse" })
    expect(() => resolveAccountLinking({ unverifiedEmail: "merge" })).toThrow(/accountLinking\.unverifiedEmail must be "reclaim" or "refuse" \(got "merge"\)/)
    expect(() => resolveAccountLinking("reclaim")).toThrow(expect.objectContaining({ type: "InvalidOption" }))
  })
})

describe("canonicalMailbox (the key of the per-address email limit only)", () => {
  it.each([
    ["bob+1@example.com", "bob@example.com"],
    ["BOB+news@Example.COM", "bob@example.com"],
    ["b.o.b@gmail.com", "bob@gmail.com"],
    ["b.ob+x@googlemail.com", "bob@gmail.com"],
    ["b.ob@example.com", "b.ob@example.com"],
    ["+tag@example.com", "+tag@example.com"],
  ])("%s counts as %s", (address, inbox) => {
    expect(canonicalMailbox(address)).toBe(inbox)
  })
})
