/**
 * Issue #20: the audit trail of passkeys, with the soft authenticator of the WebAuthn suite: a
 * sign-up registers one (user.created, passkey.added with its public credential id, the sign-in),
 * a sign-in with it, and a passkey the site does not know (a `signin` failure). No key material,
 * signature or challenge in any record.
 */
import { describe, expect, it } from "@jest/globals"
import { Browser, buildApp, passkeySignIn, passkeySignUp, softFor } from "../webauthn/fixtures.js"
import { auditLog, expectNoSecrets } from "./support.js"

describe("audit records of passkeys", () => {
  it("sign-up: user.created, passkey.added (credential id) and the sign-in; then a sign-in with it; an unknown passkey is a failure", async () => {
    const log = auditLog()
    const { app, adapter } = buildApp({ config: { events: { audit: log.audit } } })
    const soft = softFor()
    const browser = new Browser(app)
    const signUp = await passkeySignUp(browser, soft, "carol@example.com")
    expect(signUp.res.status).toBe(302)
    const user = [...adapter.store.users.values()][0]!
    expect(log.of("user.created")).toEqual([expect.objectContaining({ userId: user.id })])
    expect(log.of("passkey.added")).toEqual([expect.objectContaining({ outcome: "success", userId: user.id, provider: "passkey", credentialId: soft.id, requestId: signUp.res.headers["x-request-id"] })])
    expect(log.of("account.linked")).toHaveLength(0)
    expect(log.of("signin")).toEqual([expect.objectContaining({ outcome: "success", userId: user.id, provider: "passkey", method: "webauthn", isNewUser: true })])

    const again = await passkeySignIn(new Browser(app), soft)
    expect(again.res.status).toBe(302)
    expect(log.of("signin").at(-1)).toMatchObject({ outcome: "success", userId: user.id, isNewUser: false, requestId: again.res.headers["x-request-id"] })

    const stranger = await passkeySignIn(new Browser(app), softFor())
    expect(stranger.res.status).toBe(302)
    expect(log.of("signin").at(-1)).toMatchObject({ outcome: "failure", reason: "WebAuthnVerificationError", provider: "passkey", requestId: stranger.res.headers["x-request-id"] })

    const stored = adapter.store.authenticators.get(soft.id)!
    const response = again.data as { response: { signature: string; clientDataJSON: string; authenticatorData: string } }
    expectNoSecrets(log.records, [stored.credentialPublicKey, response.response.signature, response.response.clientDataJSON, String(again.options.body.options.challenge), "carol@example.com"])
  })
})
