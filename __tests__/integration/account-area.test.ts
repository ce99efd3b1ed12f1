/**
 * Issue #26, the account area over HTTP (supertest, memory adapter): a page of its own (a header
 * with the app's name, a link back to the app and sign out; in-page navigation to Profile,
 * Security, Devices and Danger zone), devices as people read them ("Chrome on macOS", "This
 * device", when, "This computer", "Sign out everywhere else" apart from the list), and the
 * two-factor section in each state: off (a link to set it up), on (since when, codes left, new
 * codes, turn off), each action confirmed; the new codes download as a text file.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Passkey from "../../lib/providers/passkey.js"
import { hashRecoveryCode } from "../../lib/two-factor/recovery-codes.js"
import type { AuthConfig } from "../../lib/types.js"
import { allElements, attr, byTag, parseHtml, textOf, type Element } from "../unit/pages/html.js"
import { USERS, credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"

const ALICE = USERS.alice!
const MAC_CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const RECOVERY = ["aaaa-bbbb-cccc", "dddd-eeee-ffff"]

const within = (root: Element, tag: string) => allElements(root).filter((element) => element.tagName === tag)

function site(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const config = testConfig({ adapter, providers: [credentials(), Passkey()], twoFactor: { issuer: "Acme" }, ...overrides })
  return { app: makeApp(config), adapter }
}

async function signedIn(app: ReturnType<typeof site>["app"], userAgent = MAC_CHROME): Promise<Agent> {
  const agent = request.agent(app)
  agent.set("User-Agent", userAgent)
  const res = await signInAs(agent, "alice")
  expect(res.status).toBe(302)
  return agent
}

async function page(agent: Agent, path = "/auth/account") {
  const res = await agent.get(path)
  expect(res.status).toBe(200)
  const parsed = parseHtml(res.text)
  const all = (tag: string) => byTag(parsed, tag)
  const byId = (id: string) => ["section", "p", "strong", "a", "form", "ul", "nav", "header"].flatMap(all).find((element) => attr(element, "id") === id)
  const text = (element: Element | undefined) => (element ? textOf(element).replace(/\s+/g, " ").trim() : "")
  return { res, all, byId, text, body: text(all("body")[0]) }
}

describe("the account page's layout", () => {
  it("a header with the app's name, a link back to pages.home and sign out; navigation to each section; the sections in order", async () => {
    const { app } = site({ pages: { home: "/dashboard" }, theme: { appName: "Acme Shop" } })
    const agent = await signedIn(app)
    const shown = await page(agent)
    expect(attr(shown.all("body")[0]!, "class")).toBe("wide")
    const header = shown.all("header")[0]!
    expect(shown.text(header)).toContain("Acme Shop")
    const home = shown.byId("account-home")!
    expect(new URL(attr(home, "href")!).pathname).toBe("/dashboard")
    expect(shown.text(home)).toBe("Back to Acme Shop")
    expect(new URL(attr(shown.byId("account-signout")!, "href")!).pathname).toBe("/auth/signout")
    const nav = shown.all("nav")[0]!
    expect(attr(nav, "aria-label")).toBe("Account sections")
    const links = within(nav, "a").map((link) => [attr(link, "href"), shown.text(link)])
    expect(links).toEqual([
      ["#profile", "Profile"],
      ["#security", "Security"],
      ["#devices", "Devices"],
      ["#danger", "Danger zone"],
    ])
    const sections = shown.all("section").filter((section) => attr(section, "id"))
    expect(sections.map((section) => attr(section, "id"))).toEqual(["profile", "security", "devices", "danger"])
    expect(shown.all("h2").map(shown.text)).toEqual(["Profile", "Security", "Devices", "Danger zone"])
    expect(shown.all("h3").map(shown.text)).toEqual(expect.arrayContaining(["Two-step verification", "Passkeys", "Delete account"]))
    expect(shown.all("main")).toHaveLength(1)
  })

  it("without pages.home or a name: the site's host, and back to the callback URL it was opened for (else the site's root)", async () => {
    const { app } = site()
    const agent = await signedIn(app)
    const plain = await page(agent)
    const host = new URL(attr(plain.byId("account-home")!, "href")!)
    expect(host.pathname).toBe("/")
    expect(plain.text(plain.all("header")[0])).toContain(host.host)
    const fromShop = await page(agent, "/auth/account?callbackUrl=%2Fshop%3Fitem%3D1")
    const back = new URL(attr(fromShop.byId("account-home")!, "href")!)
    expect(back.pathname + back.search).toBe("/shop?item=1")
  })

  it("pages.home is a page option, checked like the others", () => {
    expect(() => makeApp(testConfig({ pages: { home: "javascript:alert(1)" } as never }))).toThrow(/pages\.home/)
    expect(() => makeApp(testConfig({ theme: { appName: "" } }))).toThrow(/theme\.appName/)
  })
})

describe("devices", () => {
  it("browser and system, this device, when, the place only as 'This computer'; 'Sign out everywhere else' apart from the list, each confirmed", async () => {
    const { app } = site()
    const agent = await signedIn(app)
    const other = await signedIn(app, "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
    const shown = await page(agent)
    const devices = shown.byId("devices")!
    const items = within(devices, "li").map(shown.text)
    expect(items).toHaveLength(2)
    const mine = items.find((item) => item.includes("This device"))!
    expect(mine).toMatch(/^Chrome on macOS This device Last active now Signed in .+ Place: This computer$/)
    expect(items.find((item) => item !== mine)).toMatch(/^Firefox on Linux Last active now .+ Sign out this device$/)
    expect(shown.text(devices)).not.toMatch(/::\/64|127\.0\.0|0:0:0:0/)
    // The block is its own, after the list.
    const others = within(devices, "form").find((form) => attr(form, "aria-labelledby") === "account-devices-others")!
    expect(shown.text(others)).toBe("Don't recognise a device? Ends every session except the one on this device. Sign out everywhere else")
    const token = await csrfToken(agent)
    const ended = await agent.post("/auth/sessions/revoke").type("form").send({ csrfToken: token, others: "1", callbackUrl: "/auth/account?saved=others-signed-out#devices" })
    expect(ended.status).toBe(302)
    const after = await page(agent, ended.headers.location!.replace(/^https?:\/\/[^/]+/, ""))
    expect(after.all("p").find((p) => attr(p, "role") === "status")).toBeDefined()
    expect(after.body).toContain("Every other device was signed out.")
    expect(within(after.byId("devices")!, "li")).toHaveLength(1)
    expect((await other.get("/api/me").set("Accept", "application/json")).status).toBe(401)
  })
})

describe("the two-factor section", () => {
  it("off: says so and links to the setup page, coming back here", async () => {
    const { app } = site()
    const agent = await signedIn(app)
    const shown = await page(agent)
    expect(shown.text(shown.byId("two-factor-status"))).toBe("Off")
    const setup = shown.all("a").find((link) => shown.text(link) === "Set up two-step verification")!
    const url = new URL(attr(setup, "href")!, "http://x")
    expect(url.pathname).toBe("/auth/two-factor/setup")
    expect(new URL(url.searchParams.get("callbackUrl")!).pathname).toBe("/auth/account")
  })

  it("on: since when and codes left; new codes (shown once, downloadable as text) and turning off, each confirmed", async () => {
    const { app, adapter } = site()
    const agent = await signedIn(app)
    await adapter.enableTwoFactor!({ userId: ALICE.id!, secret: "sealed-elsewhere", enabledAt: new Date() }, RECOVERY.map(hashRecoveryCode))
    const on = await page(agent)
    expect(on.text(on.byId("two-factor-status"))).toBe("On")
    expect(on.body).toMatch(/Turned on .*\d/)
    expect(on.text(on.byId("two-factor-remaining"))).toBe("Unused recovery codes: 2")
    const forms = on.all("form").filter((form) => attr(form, "action")?.endsWith("/auth/two-factor/setup"))
    expect(forms).toHaveLength(2)

    // New recovery codes, with a recovery code as the proof.
    const token = await csrfToken(agent)
    const renewed = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: token, intent: "regenerate", code: RECOVERY[0], callbackUrl: "/auth/account" })
    expect(renewed.status).toBe(200)
    const codesPage = parseHtml(renewed.text)
    const codes = byTag(codesPage, "li").map((li) => textOf(li).trim())
    expect(codes).toHaveLength(10)
    expect(renewed.text).toContain("New recovery codes were made. The old ones no longer work.")
    const textarea = byTag(codesPage, "textarea")[0]!
    expect(attr(textarea, "readonly")).toBe("")
    expect(textOf(textarea).split("\n")).toEqual(codes)
    const codesToken = attr(byTag(codesPage, "input").find((input) => attr(input, "name") === "codesToken")!, "value")!
    const file = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: token, intent: "download", codesToken })
    expect(file.status).toBe(200)
    expect(file.headers["content-type"]).toMatch(/^text\/plain/)
    expect(file.headers["content-disposition"]).toMatch(/^attachment; filename="recovery-codes-.+\.txt"$/)
    for (const code of codes) expect(file.text).toContain(code)
    const forged = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: token, intent: "download", codesToken: `${codesToken}x` })
    expect(forged.status).not.toBe(200)
    expect((await page(agent)).text((await page(agent)).byId("two-factor-remaining"))).toBe("Unused recovery codes: 10")

    // Turning it off, with one of the new codes: back here, with the notice.
    const off = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: token, intent: "disable", code: codes[0], confirm: "yes", callbackUrl: "/auth/account" })
    expect(off.status).toBe(302)
    expect(new URL(off.headers.location!).pathname + new URL(off.headers.location!).search).toBe("/auth/account?saved=two-factor-off")
    const after = await page(agent, "/auth/account?saved=two-factor-off")
    expect(after.text(after.all("p").find((p) => attr(p, "role") === "status"))).toBe("Two-step verification is off.")
    expect(after.text(after.byId("two-factor-status"))).toBe("Off")
    expect(await adapter.getTwoFactor!(ALICE.id!)).toBeNull()
  })

  it("with the twoFactor option off there is no two-factor section", async () => {
    const { app } = site({ twoFactor: undefined })
    const shown = await page(await signedIn(app))
    expect(shown.byId("two-factor-status")).toBeUndefined()
    expect(shown.body).not.toContain("Two-step verification")
  })
})
