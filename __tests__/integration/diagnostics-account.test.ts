/**
 * The diagnostics page's account-page section (issue #15): without an adapter it says the account
 * page is unavailable, and `GET account` indeed answers AccountPageUnavailable; with one, each part
 * of the page says whether it shows and what it lacks: no email provider (no email change), no
 * OAuth/OIDC or passkey provider (those sections not shown), an adapter without deleteUser (no
 * deletion), an adapter without listAccountsByUserId (no page at all, MissingAdapterMethods).
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import OIDC from "../../lib/providers/oidc.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, makeApp, request, signInAs, testConfig } from "../helpers/app.js"
import { attr, byTag, parseHtml, textOf } from "../unit/pages/html.js"

interface AccountSection {
  available: boolean
  url: string
  customPage: string | null
  parts: Array<{ part: string; available: boolean; how: string }>
}

let savedEnv: string | undefined
beforeEach(() => {
  savedEnv = process.env.NODE_ENV
  process.env.NODE_ENV = "test"
})
afterEach(() => {
  if (savedEnv === undefined) delete process.env.NODE_ENV
  else process.env.NODE_ENV = savedEnv
})

async function accountSection(config: AuthConfig): Promise<AccountSection> {
  const res = await request(makeApp(config)).get("/auth/diagnostics").set({ Host: "app.test", Accept: "application/json" })
  expect(res.status).toBe(200)
  return (res.body as { account: AccountSection }).account
}

const partOf = (section: AccountSection, part: string) => section.parts.find((entry) => entry.part === part)
const email = () => Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@app.test" })
const oidc = () => OIDC({ id: "idp", name: "Test IdP", issuer: "https://idp.example", clientId: "c", clientSecret: "s" })

/** The memory adapter without `names` (as an adapter that does not implement them). */
function adapterWithout(...names: Array<keyof Adapter>): Adapter {
  const adapter: Adapter = { ...MemoryAdapter() }
  for (const name of names) delete adapter[name]
  return adapter
}

describe("diagnostics: the account page", () => {
  it("without an adapter: unavailable, said on the page and in JSON, and GET account answers AccountPageUnavailable", async () => {
    const config = testConfig()
    const section = await accountSection(config)
    expect(section.available).toBe(false)
    expect(section.url).toBe("http://app.test/auth/account")
    expect(section.parts).toEqual([{ part: "account-page", available: false, how: expect.stringContaining("need an adapter") }])
    expect(section.parts[0]!.how).toContain("AccountPageUnavailable")

    const html = await request(makeApp(config)).get("/auth/diagnostics").set({ Host: "app.test" })
    const parsed = parseHtml(html.text)
    expect(byTag(parsed, "h2").map((heading) => textOf(heading))).toContain("Account page")
    const line = byTag(parsed, "p").find((p) => attr(p, "id") === "account-page")!
    expect(textOf(line)).toBe("http://app.test/auth/account: unavailable")
    const item = byTag(parsed, "li").find((li) => attr(li, "id") === "account-account-page")!
    expect(textOf(item)).toMatch(/^account-page: Unavailable: the account page .* need an adapter/)

    const agent = request.agent(makeApp(config))
    await signInAs(agent, "alice")
    const page = await agent.get("/auth/account").set("Accept", "application/json")
    expect(page.status).toBe(501)
    expect(page.body.error.type).toBe("AccountPageUnavailable")
  })

  it("with an adapter but no email, OAuth or passkey provider: the page is available; email change unavailable (no email provider), methods and passkeys not shown", async () => {
    const section = await accountSection(testConfig({ adapter: MemoryAdapter() }))
    expect(section.available).toBe(true)
    expect(partOf(section, "account-page")).toMatchObject({ available: true })
    expect(partOf(section, "email-change")).toEqual({ part: "email-change", available: false, how: expect.stringContaining("needs an email provider") })
    expect(partOf(section, "sign-in-methods")).toMatchObject({ available: false, how: expect.stringContaining("no OAuth or OIDC provider") })
    expect(partOf(section, "passkeys")).toMatchObject({ available: false, how: expect.stringContaining("no passkey provider") })
    expect(partOf(section, "devices")).toMatchObject({ available: true })
    expect(partOf(section, "delete-account")).toMatchObject({ available: true })
  })

  it("with an email, an OIDC and a passkey provider every part is available", async () => {
    const section = await accountSection(testConfig({ adapter: MemoryAdapter(), providers: [credentials(), email(), oidc(), Passkey()] }))
    expect(section.parts.filter((part) => !part.available)).toEqual([])
    expect(section.parts.map((part) => part.part)).toEqual(["account-page", "profile-name", "email-change", "sign-in-methods", "passkeys", "passkey-names", "devices", "delete-account"])
  })

  it("an adapter without deleteUser: deletion unavailable, naming the method; without listAccountsByUserId: no page (MissingAdapterMethods)", async () => {
    const noDelete = await accountSection(testConfig({ adapter: adapterWithout("deleteUser"), providers: [credentials(), email()] }))
    expect(noDelete.available).toBe(true)
    expect(partOf(noDelete, "delete-account")).toEqual({ part: "delete-account", available: false, how: expect.stringContaining("missing: deleteUser") })

    const config = testConfig({ adapter: adapterWithout("listAccountsByUserId") })
    const noList = await accountSection(config)
    expect(noList.available).toBe(false)
    expect(partOf(noList, "account-page")).toMatchObject({ available: false, how: expect.stringContaining("missing: listAccountsByUserId") })
    const agent = request.agent(makeApp(config))
    await signInAs(agent, "alice")
    const page = await agent.get("/auth/account").set("Accept", "application/json")
    expect(page.body.error.type).toBe("MissingAdapterMethods")
  })

  it("an adapter without updateAuthenticator (like an @auth/* adapter): passkeys listed, their names, dates and Rename unavailable, naming the method", async () => {
    const section = await accountSection(testConfig({ adapter: adapterWithout("updateAuthenticator"), providers: [credentials(), Passkey()] }))
    expect(partOf(section, "passkeys")).toMatchObject({ available: true })
    expect(partOf(section, "passkey-names")).toEqual({ part: "passkey-names", available: false, how: expect.stringContaining("missing: updateAuthenticator") })
  })

  it("with pages.account set, the section names the app's own page", async () => {
    const section = await accountSection(testConfig({ adapter: MemoryAdapter(), pages: { account: "/settings" } }))
    expect(section.customPage).toBe("/settings")
    const html = await request(makeApp(testConfig({ adapter: MemoryAdapter(), pages: { account: "/settings" } }))).get("/auth/diagnostics").set({ Host: "app.test" })
    expect(html.text).toContain("it sends the browser to the app's own page, <code>/settings</code>")
  })
})
