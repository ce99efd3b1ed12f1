/**
 * The provider's options as the README lists them: server (an SMTP URL or nodemailer transport
 * options), from, maxAge, sendVerificationRequest, normalizeIdentifier, generateVerificationToken;
 * and the start-up errors (MissingAdapter, InvalidOption).
 */
import { describe, expect, it, jest } from "@jest/globals"
import nodemailer from "nodemailer"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../../lib/errors.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { makeApp, testConfig } from "../helpers/app.js"
import {
  ALICE, askForLink, expectError, follow, location, mailFor, recordingSender, sessionCookie, sessionOf, startSite,
} from "./support.js"

/** The options nodemailer's SMTP transport ended up with (what its connections use). */
function effectiveOptions(created: unknown): Record<string, unknown> {
  return (created as { transporter: { options: Record<string, unknown> } }).transporter.options
}

describe("server", () => {
  it("may be nodemailer transport options instead of a URL", async () => {
    const site = await startSite({
      providers: (smtp) => [Nodemailer({ server: { host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true } })],
    })
    const agent = site.agent()
    const { mail, link } = await mailFor(site, agent, ALICE)
    expect(mail.envelope.to).toEqual([ALICE])
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
  })

  it.each([
    ["an SMTP URL", (port: number) => `smtp://127.0.0.1:${port}`],
    ["transport options", (port: number) => ({ host: "127.0.0.1", port, secure: false, ignoreTLS: true })],
  ])("as %s, the transport gets timeouts of 10 s to connect and for the greeting and 20 s of silence", async (_name, server) => {
    const createTransport = jest.spyOn(nodemailer, "createTransport")
    const site = await startSite({ providers: (smtp) => [Nodemailer({ server: server(smtp.port) })] })
    await mailFor(site, site.agent(), ALICE)
    expect(createTransport).toHaveBeenCalledTimes(1)
    const options = effectiveOptions(createTransport.mock.results[0]!.value)
    expect(options).toEqual(expect.objectContaining({ host: "127.0.0.1", port: site.smtp.port }))
    expect(options).toEqual(expect.objectContaining({ connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }))
  })

  it("transport options may override the timeouts", async () => {
    const createTransport = jest.spyOn(nodemailer, "createTransport")
    const site = await startSite({
      providers: (smtp) => [Nodemailer({ server: { host: "127.0.0.1", port: smtp.port, ignoreTLS: true, greetingTimeout: 1234 } })],
    })
    await mailFor(site, site.agent(), ALICE)
    expect(effectiveOptions(createTransport.mock.results[0]!.value)).toEqual(expect.objectContaining({ greetingTimeout: 1234, socketTimeout: 20_000 }))
  })

  it("the transport is created once, not per mail", async () => {
    const createTransport = jest.spyOn(nodemailer, "createTransport")
    const site = await startSite()
    await mailFor(site, site.agent(), ALICE)
    await mailFor(site, site.agent(), "bob@example.com")
    await mailFor(site, site.agent(), ALICE)
    expect(site.smtp.messages.map((m) => m.envelope.to)).toEqual([[ALICE], ["bob@example.com"], [ALICE]])
    expect(createTransport).toHaveBeenCalledTimes(1)
  })
})

describe("from and maxAge", () => {
  it("from sets the sender, in the header and the envelope", async () => {
    const site = await startSite({ provider: { from: "Example <no-reply@example.com>" } })
    const { mail } = await mailFor(site, site.agent(), ALICE)
    expect(mail.mail.from).toEqual({ name: "Example", address: "no-reply@example.com" })
    expect(mail.envelope.from).toBe("no-reply@example.com")
  })

  it("maxAge sets the expiry of the stored token and the one the mail states", async () => {
    const now = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(now)
    const site = await startSite({ provider: { maxAge: 600 } })
    const { mail } = await mailFor(site, site.agent(), ALICE)
    const [stored] = [...site.memory.store.tokens.values()]
    expect(stored!.expires.getTime()).toBe(now + 600_000)
    expect(mail.mail.text).toContain(new Date(now + 600_000).toUTCString())
    expect(mail.mail.html).toContain(new Date(now + 600_000).toUTCString())
  })

  it("the default lifetime is 24 hours", async () => {
    const now = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(now)
    const site = await startSite()
    await mailFor(site, site.agent(), ALICE)
    expect([...site.memory.store.tokens.values()][0]!.expires.getTime()).toBe(now + 86_400_000)
  })
})

describe("sendVerificationRequest", () => {
  it("receives identifier, url, expires, provider, token, theme and request; no server is needed", async () => {
    const now = Date.now()
    jest.spyOn(Date, "now").mockReturnValue(now)
    const { calls, send } = recordingSender()
    const theme = { brandColor: "#123456", colorScheme: "light" as const }
    const site = await startSite({
      providers: () => [Nodemailer({ sendVerificationRequest: send, maxAge: 900, from: "Me <me@example.com>" })],
      config: { theme },
    })
    const agent = site.agent()
    const response = await askForLink(agent, "  Alice@Example.COM ", { callbackUrl: "/dashboard" })
    expect(location(response).pathname).toBe("/auth/verify-request")
    expect(send).toHaveBeenCalledTimes(1)
    const params = calls[0]!
    // Issue #19: the one-time code (6 digits by default) and when it expires (10 minutes, within the link's 15).
    expect(Object.keys(params).sort()).toEqual(["code", "codeExpires", "expires", "identifier", "provider", "request", "theme", "token", "url"])
    expect(params.code).toMatch(/^\d{6}$/)
    expect(params.codeExpires?.getTime()).toBe(now + 600_000)
    expect(params.identifier).toBe(ALICE)
    expect(params.expires.getTime()).toBe(now + 900_000)
    expect(params.provider).toEqual(expect.objectContaining({ id: "nodemailer", type: "email", maxAge: 900, from: "Me <me@example.com>" }))
    expect(params.theme).toEqual(expect.objectContaining(theme))
    expect(params.token).toMatch(/^[0-9a-f]{64}$/)
    const url = new URL(params.url)
    expect(`${url.origin}${url.pathname}`).toBe(`${site.url}/auth/callback/nodemailer`)
    expect(url.searchParams.get("token")).toBe(params.token)
    expect(url.searchParams.get("email")).toBe(ALICE)
    expect(url.searchParams.get("callbackUrl")).toBe(`${site.url}/dashboard`)
    expect(params.request).toBeInstanceOf(Request)
    expect(params.request.method).toBe("POST")
    expect(params.request.url).toBe(`${site.url}/auth/signin/nodemailer`)
    expect(site.smtp.messages).toHaveLength(0)
    // The URL it was given is the working link.
    expect(location(await follow(agent, url)).href).toBe(`${site.url}/dashboard`)
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })
})

describe("generateVerificationToken and normalizeIdentifier", () => {
  it("generateVerificationToken makes the token the link carries", async () => {
    let n = 0
    const site = await startSite({ provider: { generateVerificationToken: async () => `my-own-token-${++n}-0123456789` } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    expect(link.searchParams.get("token")).toBe("my-own-token-1-0123456789")
    expect([...site.memory.store.tokens.values()][0]!.token).not.toContain("my-own-token")
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
  })

  it("normalizeIdentifier decides the identifier: the recipient, the token's address and the user", async () => {
    const normalizeIdentifier = (input: string) => {
      const [local, domain] = input.trim().toLowerCase().split("@")
      return `${local!.split("+")[0]}@${domain}`
    }
    const site = await startSite({ provider: { normalizeIdentifier } })
    const agent = site.agent()
    const { mail, link } = await mailFor(site, agent, "Alice+News@Example.com")
    expect(mail.envelope.to).toEqual([ALICE])
    expect(link.searchParams.get("email")).toBe(ALICE)
    expect([...site.memory.store.tokens.values()][0]!.identifier).toBe(ALICE)
    await follow(agent, link)
    expect([...site.memory.store.users.values()].map((u) => u.email)).toEqual([ALICE])
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  })

  it.each([
    ["a list", () => "alice@example.com, mallory@evil.example"],
    ["a display name", () => "Alice <mallory@evil.example>"],
    ["a header", () => "alice@example.com\r\nBcc: mallory@evil.example"],
    ["two @", () => "alice@example.com@evil.example"],
    ["an empty string", () => ""],
  ])("a normaliser that returns %s is refused by the safety net: EmailSignin, no mail, no token", async (_name, normalizeIdentifier) => {
    const site = await startSite({ provider: { normalizeIdentifier } })
    expectError(await askForLink(site.agent(), ALICE), "signin", "EmailSignin")
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  })

  it("a normaliser that throws refuses the address with EmailSignin", async () => {
    const site = await startSite({
      provider: {
        normalizeIdentifier: () => {
          throw new Error("not from our company")
        },
      },
    })
    expectError(await askForLink(site.agent(), ALICE), "signin", "EmailSignin")
    expect(site.smtp.messages).toHaveLength(0)
    expect(site.memory.store.tokens.size).toBe(0)
  })
})

describe("start-up errors", () => {
  it("without an adapter: MissingAdapter when the router is built", () => {
    const config = testConfig({ providers: [Nodemailer({ server: "smtp://127.0.0.1:2525" })] })
    expect(() => makeApp(config)).toThrow(MissingAdapter)
  })

  it("an adapter without the verification-token methods: MissingAdapterMethods naming them", () => {
    const { createVerificationToken: _c, useVerificationToken: _u, ...partial } = MemoryAdapter()
    const config = testConfig({ providers: [Nodemailer({ server: "smtp://127.0.0.1:2525" })], adapter: partial })
    expect(() => makeApp(config)).toThrow(MissingAdapterMethods)
    expect(() => makeApp(testConfig({ ...config }))).toThrow(/createVerificationToken.*useVerificationToken|useVerificationToken.*createVerificationToken/)
  })

  it("without a server (and with the default sender): InvalidOption naming server", () => {
    const config = testConfig({ providers: [Nodemailer({})], adapter: MemoryAdapter() })
    expect(() => makeApp(config)).toThrow(InvalidOption)
    expect(() => makeApp(testConfig({ providers: [Nodemailer({})], adapter: MemoryAdapter() }))).toThrow(/server/)
  })

  it.each([0, -5, Number.NaN, "3600"])("maxAge %p is refused with InvalidOption", (maxAge) => {
    const provider = Nodemailer({ server: "smtp://127.0.0.1:2525", maxAge: maxAge as number })
    expect(() => makeApp(testConfig({ providers: [provider], adapter: MemoryAdapter() }))).toThrow(InvalidOption)
  })

  it("a valid configuration builds", () => {
    const provider = Nodemailer({ server: "smtp://127.0.0.1:2525" })
    expect(() => makeApp(testConfig({ providers: [provider], adapter: MemoryAdapter() }))).not.toThrow()
  })
})
