/**
 * Addresses. EMAIL-05: whatever the input, the one recipient (RCPT TO), the identifier the token
 * is bound to and the user signed in are the same address. EMAIL-06: inputs that could reach
 * another or several recipients are refused with EmailSignin, no mail and no token.
 */
import { describe, expect, it } from "@jest/globals"
import type { AdapterUser } from "../../lib/adapters.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import {
  ALICE, askForLink, csrfToken, expectError, follow, location, mailFor, recordingSender, sessionOf, startSite, type Site,
} from "./support.js"

async function siteWithAlice(): Promise<Site> {
  const site = await startSite()
  await site.memory.createUser({ id: "u-alice", email: ALICE, emailVerified: new Date(), name: "Alice" } as AdapterUser)
  return site
}

function expectRefused(site: Site, response: { status: number; headers: Record<string, unknown> }): void {
  expectError(response, "signin", "EmailSignin")
  expect(site.smtp.messages).toHaveLength(0)
  expect(site.memory.store.tokens.size).toBe(0)
}

describe("EMAIL-05 normalisation is the same end to end", () => {
  it.each([
    ["upper case", "ALICE@EXAMPLE.COM", ALICE],
    ["outer spaces", "  alice@example.com  ", ALICE],
    ["fullwidth letters (NFKC)", "ａｌｉｃｅ@example.com", ALICE],
    ["fullwidth domain (NFKC)", "alice@ＥＸＡＭＰＬＥ.com", ALICE],
    ["a sub-address, kept", "alice+news@example.com", "alice+news@example.com"],
    ["a dot, kept", "a.lice@example.com", "a.lice@example.com"],
    ["a fullwidth @ (U+FF20), folded before the checks", "alice＠evil.example", "alice@evil.example"],
    ["a small @ (U+FE6B), folded before the checks", "alice﹫evil.example", "alice@evil.example"],
  ])("%s: %p is the identifier %p for the mail, the token and the user", async (_name, input, identifier) => {
    const site = await siteWithAlice()
    const agent = site.agent()
    const { mail, link } = await mailFor(site, agent, input)
    expect(mail.envelope.to).toEqual([identifier])
    expect(mail.mail.to).toEqual([{ address: identifier, name: "" }])
    expect([...site.memory.store.tokens.values()].map((t) => t.identifier)).toEqual([identifier])
    expect(link.searchParams.get("email")).toBe(identifier)
    expect((await follow(agent, link)).status).toBe(302)
    expect((await sessionOf(agent))?.user?.email).toBe(identifier)
    const holders = [...site.memory.store.users.values()].filter((user) => user.email === identifier)
    expect(holders).toHaveLength(1)
    const [session] = [...site.memory.store.sessions.values()]
    expect(session!.userId).toBe(holders[0]!.id)
    // Alice is signed in only when the identifier is hers, and never duplicated.
    expect(session!.userId === "u-alice").toBe(identifier === ALICE)
    expect([...site.memory.store.users.values()].filter((user) => user.email === ALICE)).toHaveLength(1)
  })

  it.each([
    ["a Cyrillic е in the local part", "alicе@example.com"],
    ["a Cyrillic а in the domain", "alice@exаmple.com"],
    ["a trailing dot", "alice@EXAMPLE.com."],
    ["an IDN domain", "alice@bücher.example"],
    ["a zero-width space", "ali\u200bce@example.com"],
  ])("%s is refused: %p", async (_name, input) => {
    const site = await siteWithAlice()
    expectRefused(site, await askForLink(site.agent(), input))
  })

  it("the link's address is normalised the same way when followed (ALICE@Example.com signs alice in)", async () => {
    const site = await siteWithAlice()
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    link.searchParams.set("email", "ALICE@Example.com")
    expect((await follow(agent, link)).status).toBe(302)
    expect(site.memory.store.sessions.size).toBe(1)
    expect([...site.memory.store.sessions.values()][0]!.userId).toBe("u-alice")
  })

  it("a 64-character local part and a 254-character address are accepted", async () => {
    // A recording sender: the SMTP sink itself refuses recipients this long (501).
    const { calls, send } = recordingSender()
    const site = await startSite({ providers: () => [Nodemailer({ sendVerificationRequest: send })] })
    const local = "a".repeat(64)
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(53)}.example`
    const longest = `${local}@${domain}`
    expect(longest).toHaveLength(254)
    for (const address of [`${local}@example.com`, longest]) {
      expect(location(await askForLink(site.agent(), address)).pathname).toBe("/auth/verify-request")
    }
    expect(calls.map((call) => call.identifier)).toEqual([`${local}@example.com`, longest])
  })
})

describe("EMAIL-06 one input never reaches other or several recipients", () => {
  // 64 + 1 + 190 = 255 characters: one too many.
  const longDomain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(54)}.example`
  it.each([
    "alice@example.com,mallory@evil.example",
    "mallory@evil.example,alice@example.com",
    "alice@example.com;mallory@evil.example",
    "alice@example.com mallory@evil.example",
    '"mallory@evil.example x"@example.com',
    '"alice@example.com"@evil.example',
    '"alice"@example.com',
    "Alice <alice@example.com>, mallory@evil.example",
    "alice@example.com <mallory@evil.example>",
    "<alice@example.com>",
    "alice(mallory@evil.example)@example.com",
    "alice@example.com (comment)",
    "alice@example.com@evil.example",
    "@evil.example:alice@example.com",
    "alice@[127.0.0.1]",
    "alice@example.com\r\nBcc: mallory@evil.example",
    "alice@example.com\nCc: mallory@evil.example",
    "alice@example.com%0d%0aBcc: mallory@evil.example",
    "alice@example.com>\r\nRCPT TO:<mallory@evil.example",
    "alice@example.com\u0000mallory@evil.example",
    "alice@example.com\tmallory@evil.example",
    "group: alice@example.com, mallory@evil.example;",
    "alice..x@example.com",
    ".alice@example.com",
    "alice.@example.com",
    "alice@-example.com",
    "alice@example..com",
    `${"a".repeat(65)}@example.com`,
    `${"a".repeat(64)}@${longDomain}`,
    `${"a".repeat(288)}@example.com`,
    "",
    "   ",
    "@",
    "alice@",
    "@example.com",
    "alice",
  ])("refused: %p", async (input) => {
    const site = await siteWithAlice()
    expectRefused(site, await askForLink(site.agent(), input))
  })

  it.each([
    "=?utf-8?b?bWFsbG9yeUBldmlsLmV4YW1wbGU=?=@example.com",
    "=?utf-8?q?mallory=40evil.example?=@example.com",
    "alice%mallory@example.com",
    "#!$&'*+/=?^_`{|}~-@example.com",
  ])("accepted, and delivered to exactly that one address: %p", async (input) => {
    const identifier = input.toLowerCase()
    const site = await siteWithAlice()
    const { mail } = await mailFor(site, site.agent(), input)
    expect(mail.envelope.to).toEqual([identifier])
    expect(mail.mail.to?.map((to) => to.address)).toEqual([identifier])
    expect(mail.raw.split("\r\n").filter((line) => /^(to|cc|bcc):/i.test(line))).toEqual([`To: ${identifier}`])
    expect([...site.memory.store.tokens.values()].map((t) => t.identifier)).toEqual([identifier])
  })

  it("an address list as a JSON array is refused", async () => {
    const site = await siteWithAlice()
    const agent = site.agent()
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signin/nodemailer").type("json").send({ csrfToken: token, email: [ALICE, "mallory@evil.example"] })
    expectRefused(site, response)
  })

  it("the email field given twice in a form is refused", async () => {
    const site = await siteWithAlice()
    const agent = site.agent()
    const token = await csrfToken(agent)
    const body = new URLSearchParams([["csrfToken", token], ["email", ALICE], ["email", "mallory@evil.example"]])
    const response = await agent.post("/auth/signin/nodemailer").type("form").send(body.toString())
    expectRefused(site, response)
  })

  it("a missing email field is refused", async () => {
    const site = await siteWithAlice()
    const agent = site.agent()
    const token = await csrfToken(agent)
    const response = await agent.post("/auth/signin/nodemailer").type("form").send({ csrfToken: token })
    expectRefused(site, response)
  })
})
