/**
 * Issue #20: the audit trail of OAuth/OIDC sign-ins against the real oidc-provider: a first
 * sign-in (user created, account linked, signed in), a refusal at the provider (a `signin`
 * failure with reason OAuthCallbackError), and none of the provider's tokens, the authorization
 * code or the state in any record.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { atIdp, client, cookieValue, local, oauthSuite, oidc, SESSION_COOKIE, signInFlow, startSignIn, startSite } from "../oauth/support.js"
import { auditLog, expectNoSecrets } from "./support.js"

oauthSuite()

describe("audit records of OAuth sign-ins", () => {
  it("a first sign-in: user.created, account.linked (oidc) and a `signin` success with provider and method; no token, code or state in any record", async () => {
    const log = auditLog()
    const adapter = MemoryAdapter()
    const site = await startSite({ config: () => ({ adapter, events: { audit: log.audit }, session: { strategy: "database" } }) })
    const agent = site.agent()
    const { back, callback } = await signInFlow(site, agent)
    expect(callback.status).toBe(302)
    const account = [...adapter.store.accounts.values()][0]!
    expect(log.of("user.created")).toEqual([expect.objectContaining({ userId: account.userId })])
    expect(log.of("account.linked")).toEqual([expect.objectContaining({ outcome: "success", userId: account.userId, provider: "idp", accountType: "oidc" })])
    expect(log.of("signin")).toEqual([expect.objectContaining({ outcome: "success", userId: account.userId, provider: "idp", method: "oidc", isNewUser: true, requestId: callback.headers["x-request-id"] })])
    expect(account.access_token).toBeTruthy()
    expectNoSecrets(log.records, [
      account.access_token,
      account.id_token,
      account.refresh_token ?? undefined,
      back.searchParams.get("code") ?? undefined,
      back.searchParams.get("state") ?? undefined,
      cookieValue(callback, SESSION_COOKIE),
    ])
  })

  it("the provider refuses (error=login_required): a `signin` failure with reason OAuthCallbackError and no user", async () => {
    const log = auditLog()
    const site = await startSite({ config: () => ({ events: { audit: log.audit } }) })
    const agent = site.agent()
    const start = await startSignIn(agent, "idp", { authorizationParams: "prompt=none" })
    expect(log.records).toHaveLength(0)
    const back = await atIdp(site, start)
    const callback = await agent.get(local(back))
    expect(callback.status).toBe(302)
    expect(log.of("signin")).toEqual([expect.objectContaining({ outcome: "failure", reason: "OAuthCallbackError", provider: "idp", requestId: callback.headers["x-request-id"] })])
    expect(log.of("signin")[0]!.userId).toBeUndefined()
  })

  it("a vouched sign-in taking back a squatted address: account.reclaimed (what was removed) and the user's sessions revoked", async () => {
    const log = auditLog()
    const adapter = MemoryAdapter()
    const site = await startSite({
      clients: (url) => [client(url)],
      providers: (idp) => [oidc(idp)],
      accounts: { squatter: { email: "victim@example.com", name: "Squatter" }, owner: { email: "victim@example.com", email_verified: true, name: "Owner" } },
      config: () => ({ adapter, events: { audit: log.audit }, session: { strategy: "database" } }),
    })
    await signInFlow(site, site.agent(), { login: "squatter" })
    const squatted = (await adapter.getUserByEmail("victim@example.com"))!
    const { callback } = await signInFlow(site, site.agent(), { login: "owner" })
    expect(new URL(callback.headers.location!, site.url).searchParams.get("type")).toBe("AccountReclaimed")
    const requestId = callback.headers["x-request-id"]
    expect(log.of("account.reclaimed")).toEqual([
      expect.objectContaining({ outcome: "success", userId: squatted.id, provider: "idp", removedAccounts: ["idp"], removedPasskeys: 0, requestId }),
    ])
    expect(log.of("session.revoked")).toEqual([expect.objectContaining({ userId: squatted.id, scope: "user", requestId })])
    expect(log.of("signin").at(-1)).toMatchObject({ outcome: "success", userId: squatted.id, requestId })
    expectNoSecrets(log.records, ["victim@example.com", cookieValue(callback, SESSION_COOKIE)])
  })
})
