/**
 * Issue #20: the audit trail of the account page (issue #15): disconnecting a provider, removing
 * a passkey, deleting the account (its sessions end); each record names the user and what was
 * removed, and carries the request's id, address and user agent.
 */
import { afterEach, describe, expect, it } from "@jest/globals"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import OIDC from "../../lib/providers/oidc.js"
import Passkey from "../../lib/providers/passkey.js"
import { USERS, credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"
import { auditLog, cookieValues, expectNoSecrets } from "./support.js"

const ALICE = USERS.alice!

function site(smtp?: SmtpSink) {
  const log = auditLog()
  const adapter = MemoryAdapter()
  const config = testConfig({
    adapter,
    providers: [credentials(), OIDC({ id: "idp", name: "Test IdP", issuer: "https://idp.example", clientId: "c", clientSecret: "s" }), Passkey(), ...(smtp ? [Nodemailer({ server: smtp.url })] : [])],
    events: { audit: log.audit },
  })
  return { log, adapter, app: makeApp(config) }
}

async function post(agent: Agent, action: string, form: Record<string, string>) {
  const token = await csrfToken(agent)
  return agent.post(`/auth/account/${action}`).set("User-Agent", "account-test").type("form").send({ csrfToken: token, ...form })
}

describe("audit records of the account page", () => {
  it("disconnecting a provider is account.unlinked; removing a passkey is passkey.removed with its credential id", async () => {
    const { log, adapter, app } = site()
    const agent = request.agent(app) as unknown as Agent
    expect((await signInAs(agent, "alice")).status).toBe(302)
    await adapter.linkAccount({ type: "oidc", provider: "idp", providerAccountId: "alice-at-idp", userId: ALICE.id!, access_token: "idp-access-token-secret" })
    const unlinked = await post(agent, "unlink", { provider: "idp" })
    expect(String(unlinked.headers.location)).toMatch(/saved=unlink$/)
    expect(log.of("account.unlinked")).toEqual([
      expect.objectContaining({ outcome: "success", userId: ALICE.id, provider: "idp", accountType: "oidc", userAgent: "account-test", ip: "127.0.0.1", requestId: unlinked.headers["x-request-id"] }),
    ])

    await adapter.linkAccount({ type: "webauthn", provider: "passkey", providerAccountId: "alice-key-0001", userId: ALICE.id! })
    await adapter.createAuthenticator({ credentialID: "alice-key-0001", userId: ALICE.id!, providerAccountId: "alice-key-0001", credentialPublicKey: "cHVibGlj", counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal" })
    const removed = await post(agent, "passkey-remove", { credentialID: "alice-key-0001" })
    expect(String(removed.headers.location)).toMatch(/saved=passkey-remove$/)
    expect(log.of("passkey.removed")).toEqual([expect.objectContaining({ outcome: "success", userId: ALICE.id, provider: "passkey", credentialId: "alice-key-0001", requestId: removed.headers["x-request-id"] })])
    expect(log.of("account.unlinked")).toHaveLength(1)
    expectNoSecrets(log.records, ["idp-access-token-secret", "cHVibGlj"])
  })

  it("deleting the account is user.deleted, and every session of the user ends (session.revoked, scope user)", async () => {
    const { log, app } = site()
    const agent = request.agent(app) as unknown as Agent
    const signedIn = await signInAs(agent, "alice")
    const deleted = await post(agent, "delete", { confirm: "yes" })
    expect(deleted.status).toBe(302)
    expect(log.of("user.deleted")).toEqual([expect.objectContaining({ outcome: "success", userId: ALICE.id, requestId: deleted.headers["x-request-id"] })])
    expect(log.of("session.revoked")).toEqual([expect.objectContaining({ userId: ALICE.id, scope: "user", requestId: deleted.headers["x-request-id"] })])
    expectNoSecrets(log.records, [...cookieValues(signedIn), ALICE.email!, ALICE.password])
  })

  it("a new address confirmed from its mailed link (real SMTP sink) is email.changed; no address or token in the record", async () => {
    const smtp = await startSmtp()
    sinks.push(smtp)
    const { log, app } = site(smtp)
    const agent = request.agent(app) as unknown as Agent
    await signInAs(agent, "alice")
    await post(agent, "email", { email: "alice.new@example.com" })
    const link = linkIn((await smtp.waitFor(1))[0]!)
    expect(log.of("email.changed")).toHaveLength(0)
    const confirmed = await post(agent, "confirm-email", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")! })
    expect(String(confirmed.headers.location)).toMatch(/saved=confirm-email$/)
    expect(log.of("email.changed")).toEqual([expect.objectContaining({ outcome: "success", userId: ALICE.id, provider: "nodemailer", requestId: confirmed.headers["x-request-id"] })])
    expectNoSecrets(log.records, [link.searchParams.get("token")!, link.href, "alice.new@example.com", ALICE.email!])
  })

  it("signing out one other device is session.revoked with scope session and that session's listed id", async () => {
    const { log, app } = site()
    const laptop = request.agent(app) as unknown as Agent
    const phone = request.agent(app) as unknown as Agent
    await signInAs(laptop, "alice")
    const phoneSignIn = await signInAs(phone, "alice")
    const listed = (await laptop.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
    const other = listed.find((session) => !session.current)!
    const token = await csrfToken(laptop)
    const revoked = await laptop.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken: token, id: other.id }).expect(200)
    expect(log.of("session.revoked")).toEqual([expect.objectContaining({ outcome: "success", userId: ALICE.id, scope: "session", sessionId: other.id, requestId: revoked.headers["x-request-id"] })])
    expectNoSecrets(log.records, cookieValues(phoneSignIn))
  })
})

const sinks: SmtpSink[] = []
afterEach(async () => {
  for (const sink of sinks.splice(0)) await sink.close()
})
