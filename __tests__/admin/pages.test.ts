/**
 * The admin pages (issue #30) as a browser meets them: the user list (search, the next page, the
 * create form), a user's page (the ban, the forms, the status line after a form came back), and
 * the impersonation banner every built-in page shows while an admin views the site as a user
 * (with its stop button), in the request's language.
 */
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, request, type Agent } from "../helpers/app.js"
import { credentialsProvider, signIn, storedUser } from "../integration/organizations/support.js"
import { attr, byTag, parseHtml, textOf, type Element, type Parsed } from "../unit/pages/html.js"

interface Setup {
  app: Express
  adapter: Adapter
  admin: Agent
  adminId: string
  /** Another admin (in `admin.userIds`), not signed in. */
  otherAdminId: string
}

async function setup(options: { strategy?: "jwt" | "database"; admin?: Record<string, unknown> } = {}): Promise<Setup> {
  const adapter = MemoryAdapter()
  // userIds is read once at start-up: the admin exists before the app.
  const adminUser = await storedUser(adapter, "boss")
  const otherAdmin = await storedUser(adapter, "deputy")
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    rateLimit: false,
    ...(options.strategy && { session: { strategy: options.strategy } }),
    admin: { userIds: [adminUser.id, otherAdmin.id], impersonation: true, ...options.admin },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  const client = await signIn(app, adminUser)
  return { app, adapter, admin: client.agent, adminId: adminUser.id, otherAdminId: otherAdmin.id }
}

/** A page as a browser shows it (a redirect within the site followed). */
async function page(agent: Agent, path: string, language?: string): Promise<{ status: number; parsed: Parsed; text: string; html: string }> {
  const get = (target: string) => {
    const call = agent.get(target).set("Accept", "text/html")
    return language ? call.set("Accept-Language", language) : call
  }
  let response = await get(path)
  if (response.status === 302) {
    const location = new URL(response.headers.location as string, "http://app.test")
    response = await get(`${location.pathname}${location.search}`)
  }
  const parsed = parseHtml(response.text)
  return { status: response.status, parsed, text: textOf(parsed.document).replace(/\s+/g, " "), html: response.text }
}

const byId = (parsed: Parsed, id: string): Element | undefined => parsed.elements.find((element) => attr(element, "id") === id)

/** The hidden fields and action of a form, as a browser would send it. */
function formOf(parsed: Parsed, id: string): { action: string; fields: Record<string, string> } {
  const form = byId(parsed, id)
  if (!form) throw new Error(`no form #${id}`)
  const fields: Record<string, string> = {}
  const inputs = parsed.elements.filter((element) => element.tagName === "input" && attr(element, "type") === "hidden" && isInside(element, form))
  for (const input of inputs) fields[attr(input, "name") as string] = attr(input, "value") ?? ""
  return { action: new URL(attr(form, "action") as string).pathname, fields }
}

function isInside(element: Element, ancestor: Element): boolean {
  for (let node = element.parentNode as Element | null; node; node = node.parentNode as Element | null) if (node === ancestor) return true
  return false
}

/** Every label's `for` names a field, and every visible field has a label. */
function expectLabelled(parsed: Parsed) {
  const labelled = new Set(byTag(parsed, "label").map((label) => attr(label, "for")))
  const fields = parsed.elements.filter((element) => (element.tagName === "input" && attr(element, "type") !== "hidden") || element.tagName === "select")
  expect(fields.length).toBeGreaterThan(0)
  for (const field of fields) expect(labelled.has(attr(field, "id"))).toBe(true)
}

/** Headings never skip a level (h1, then h2, h3 ...). */
function expectHeadingsInOrder(parsed: Parsed) {
  const levels = parsed.elements.filter((element) => /^h[1-6]$/.test(element.tagName)).map((element) => Number(element.tagName[1]))
  expect(levels[0]).toBe(1)
  levels.reduce((previous, level) => {
    expect(level).toBeLessThanOrEqual(previous + 1)
    return level
  })
}

describe("the user list page", () => {
  test("lists the users with their state and a link to each user's page; the search narrows it", async () => {
    const t = await setup()
    const ada = await storedUser(t.adapter, "adalist")
    const bob = await storedUser(t.adapter, "boblist", { verified: false })
    await t.adapter.putUserBan!({ userId: bob.id, reason: "spam", expires: null, createdAt: new Date(), bannedBy: t.adminId })

    const all = await page(t.admin, "/auth/admin")
    expect(all.status).toBe(200)
    expect(all.parsed.errors).toEqual([])
    const links = byTag(all.parsed, "a").filter((a) => attr(a, "class") === "admin-user-link")
    expect(links.map((a) => textOf(a))).toEqual(expect.arrayContaining([ada.email, bob.email]))
    expect(links.find((a) => textOf(a) === ada.email) && attr(links.find((a) => textOf(a) === ada.email)!, "href")).toBe(`http://app.test/auth/admin/${encodeURIComponent(ada.id)}`)
    const bobItem = (links.find((a) => textOf(a) === bob.email)!.parentNode as unknown as { parentNode: Element }).parentNode
    expect(textOf(bobItem)).toContain("Banned")
    expect(textOf(bobItem)).toContain("Email not verified")
    expectLabelled(all.parsed)
    expectHeadingsInOrder(all.parsed)
    // The create form posts with the CSRF token.
    const create = formOf(all.parsed, "admin-create-form")
    expect(create.action).toBe("/auth/admin/create-user")
    expect(create.fields.csrfToken).toMatch(/^[0-9a-f]{64}$/)

    const found = await page(t.admin, `/auth/admin?search=${encodeURIComponent("adalist")}`)
    expect(found.text).toContain(ada.email)
    expect(found.text).not.toContain(bob.email)
    expect(attr(byId(found.parsed, "admin-search")!, "value")).toBe("adalist")

    const none = await page(t.admin, "/auth/admin?search=nobody-has-this")
    expect(byId(none.parsed, "admin-users-none")).toBeDefined()
    expect(none.text).toContain("No users match.")
  })

  test("the next-page link goes on where the page stopped, keeping the search", async () => {
    const t = await setup({ admin: { pageSize: 2 } })
    const emails: string[] = []
    for (const label of ["pga", "pgb", "pgc"]) emails.push((await storedUser(t.adapter, label, { email: `${label}-${Date.now()}@paging.test` })).email)
    const first = await page(t.admin, "/auth/admin?search=paging.test")
    const next = byId(first.parsed, "admin-next")
    expect(next).toBeDefined()
    const href = new URL(attr(next!, "href") as string)
    expect(href.searchParams.get("search")).toBe("paging.test")
    expect(href.searchParams.get("cursor")).toBeTruthy()
    const second = await page(t.admin, `${href.pathname}${href.search}`)
    const shown = (p: Parsed) => byTag(p, "a").filter((a) => attr(a, "class") === "admin-user-link").map((a) => textOf(a))
    expect([...shown(first.parsed), ...shown(second.parsed)].sort()).toEqual([...emails].sort())
    expect(byId(second.parsed, "admin-next")).toBeUndefined()
  })

  test("creating a user through the form leads to their page with the status line", async () => {
    const t = await setup()
    const list = await page(t.admin, "/auth/admin")
    const form = formOf(list.parsed, "admin-create-form")
    const created = await t.admin.post(form.action).type("form").send({ ...form.fields, email: "New.Person@Example.com", name: "New Person", emailVerified: "true" })
    expect(created.status).toBe(302)
    const location = new URL(created.headers.location as string)
    expect(location.searchParams.get("saved")).toBe("create-user")
    const shown = await page(t.admin, `${location.pathname}${location.search}`)
    expect(textOf(byId(shown.parsed, "admin-status")!)).toBe("The user was created.")
    expect(byId(shown.parsed, "admin-user-name") && textOf(byId(shown.parsed, "admin-user-name")!)).toBe("New Person")
  })
})

describe("a user's page", () => {
  test("shows the ban (reason, until lifted) and the unban form; a user not banned gets the ban form with its durations", async () => {
    const t = await setup()
    const banned = await storedUser(t.adapter, "banned")
    await t.adapter.putUserBan!({ userId: banned.id, reason: "Too many refunds", expires: null, createdAt: new Date(), bannedBy: t.adminId })
    const shown = await page(t.admin, `/auth/admin/${banned.id}`)
    expect(shown.status).toBe(200)
    expect(shown.parsed.errors).toEqual([])
    expect(textOf(byId(shown.parsed, "admin-ban-state")!)).toContain("Until the ban is lifted.")
    expect(textOf(byId(shown.parsed, "admin-ban-reason")!)).toBe("Reason: Too many refunds")
    expect(byId(shown.parsed, "admin-user-banned")).toBeDefined()
    expect(formOf(shown.parsed, "admin-unban-form").action).toBe("/auth/admin/unban")
    expect(byId(shown.parsed, "admin-ban-form")).toBeUndefined()
    // A banned user is not impersonated: no such form.
    expect(byId(shown.parsed, "admin-impersonate-form")).toBeUndefined()

    const other = await storedUser(t.adapter, "free")
    const free = await page(t.admin, `/auth/admin/${other.id}`)
    expectLabelled(free.parsed)
    expectHeadingsInOrder(free.parsed)
    const select = byId(free.parsed, "admin-ban-expires")!
    expect(select.tagName).toBe("select")
    expect(attr(select, "class")).toBe("field-choice")
    expect(attr(select, "name")).toBe("expires")
    expect(byTag(free.parsed, "option").map((option) => attr(option, "value"))).toEqual(["3600", "86400", "604800", "2592000", ""])
    for (const id of ["admin-update-form", "admin-ban-form", "admin-revoke-form", "admin-impersonate-form", "admin-delete-form"]) {
      const form = formOf(free.parsed, id)
      expect(form.fields.userId).toBe(other.id)
      expect(form.fields.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    }
    // Two-factor is off and there is no password provider: those forms are not offered.
    expect(byId(free.parsed, "admin-two-factor-form")).toBeUndefined()
    expect(byId(free.parsed, "admin-reset-form")).toBeUndefined()
    expect(textOf(byId(free.parsed, "admin-two-factor-state")!)).toBe("Off.")
    expect(textOf(byId(free.parsed, "admin-delete-warning")!)).toContain("cannot be undone")
    // The page's CSS never names `select` (its themes style class="field-choice").
    const css = byTag(free.parsed, "style").map((style) => textOf(style)).join("")
    expect(css).not.toMatch(/select/i)
  })

  test("another admin cannot be impersonated unless impersonation.admins: the page says why instead of a button", async () => {
    const t = await setup()
    const shown = await page(t.admin, `/auth/admin/${t.otherAdminId}`)
    expect(byId(shown.parsed, "admin-user-admin")).toBeDefined()
    expect(byId(shown.parsed, "admin-impersonate-form")).toBeUndefined()
    expect(textOf(byId(shown.parsed, "admin-impersonate-denied")!)).toContain("administrator")
    // Nor oneself.
    expect(byId((await page(t.admin, `/auth/admin/${t.adminId}`)).parsed, "admin-impersonate-form")).toBeUndefined()

    const allowed = await setup({ admin: { impersonation: { admins: true } } })
    const open = await page(allowed.admin, `/auth/admin/${allowed.otherAdminId}`)
    expect(formOf(open.parsed, "admin-impersonate-form").fields.userId).toBe(allowed.otherAdminId)
    expect(byId(open.parsed, "admin-impersonate-denied")).toBeUndefined()
  })

  test("a form comes back to the page with its status line; a refusal is explained, never echoing the query", async () => {
    const t = await setup()
    const user = await storedUser(t.adapter, "edited")
    const taken = await storedUser(t.adapter, "taken")
    const before = await page(t.admin, `/auth/admin/${user.id}`)
    const form = formOf(before.parsed, "admin-ban-form")
    const banned = await t.admin.post(form.action).type("form").send({ ...form.fields, reason: "Abuse", expires: "86400" })
    expect(banned.status).toBe(302)
    const back = new URL(banned.headers.location as string)
    expect(back.pathname).toBe(`/auth/admin/${user.id}`)
    const after = await page(t.admin, `${back.pathname}${back.search}`)
    expect(textOf(byId(after.parsed, "admin-status")!)).toBe("The user was banned and signed out everywhere.")
    expect(attr(byId(after.parsed, "admin-status")!, "role")).toBe("status")
    expect(textOf(byId(after.parsed, "admin-ban-state")!)).toMatch(/Until .*\d/)

    const update = formOf(after.parsed, "admin-update-form")
    const refused = await t.admin.post(update.action).type("form").send({ ...update.fields, name: "Edited", email: taken.email })
    expect(refused.status).toBe(302)
    const explained = new URL(refused.headers.location as string)
    expect(explained.searchParams.get("error")).toBe("EmailInUse")
    const refusal = await page(t.admin, `${explained.pathname}${explained.search}`)
    expect(textOf(byId(refusal.parsed, "admin-status")!)).toBe("Another user has this email address.")
    expect(attr(byId(refusal.parsed, "admin-status")!, "role")).toBe("alert")

    const forged = await page(t.admin, `/auth/admin/${user.id}?error=${encodeURIComponent("<b>Pay here</b>")}`)
    expect(textOf(byId(forged.parsed, "admin-status")!)).toBe("We could not complete that request. Please try again.")
    expect(forged.html).not.toContain("Pay here")
  })

  test("is in German with Accept-Language: de", async () => {
    const t = await setup()
    const user = await storedUser(t.adapter, "deutsch")
    const list = await page(t.admin, "/auth/admin", "de")
    expect(attr(byTag(list.parsed, "html")[0]!, "lang")).toBe("de")
    expect(textOf(byId(list.parsed, "admin-search-button")!)).toBe("Benutzer suchen")
    expect(textOf(byId(list.parsed, "admin-create")!)).toBe("Benutzer anlegen")
    const shown = await page(t.admin, `/auth/admin/${user.id}`, "de")
    expect(textOf(byId(shown.parsed, "admin-ban")!)).toBe("Diesen Benutzer sperren")
    expect(textOf(byId(shown.parsed, "admin-delete")!)).toBe("Diesen Benutzer löschen")
    expect(byTag(shown.parsed, "option").map((option) => textOf(option))).toContain("Bis zur Aufhebung")
  })
})

describe.each(["jwt", "database"] as const)("the impersonation banner (%s sessions)", (strategy) => {
  // The admin page refuses an impersonating browser: the error page, which has the banner too.
  const PAGES = ["/auth/signin", "/auth/error?error=Configuration", "/auth/signout", "/auth/account", "/auth/admin/somebody"]

  async function impersonating(t: Setup, label: string) {
    const user = await storedUser(t.adapter, label)
    const before = await page(t.admin, `/auth/admin/${user.id}`)
    const form = formOf(before.parsed, "admin-impersonate-form")
    const started = await t.admin.post(form.action).type("form").send(form.fields)
    expect(started.status).toBe(302)
    const cookies = ([] as string[]).concat(started.headers["set-cookie"] ?? [])
    return { user, stash: cookies.find((cookie) => cookie.startsWith("gatehouse.impersonator="))!.split(";")[0]! }
  }

  test("is on every built-in page while impersonating, and on none otherwise", async () => {
    const t = await setup({ strategy })
    for (const path of PAGES) {
      const plain = await page(t.admin, path)
      expect(byId(plain.parsed, "impersonation-banner")).toBeUndefined()
    }
    const { user } = await impersonating(t, "viewed")
    for (const path of PAGES) {
      const shown = await page(t.admin, path)
      const banner = byId(shown.parsed, "impersonation-banner")
      expect(banner).toBeDefined()
      expect(attr(banner!, "aria-label")).toBe("Viewing as another user")
      expect(textOf(byId(shown.parsed, "impersonation-stop")!)).toBe("Stop viewing as this user")
      const stop = formOf(shown.parsed, "impersonation-stop-form")
      expect(stop.action).toBe("/auth/admin/stop-impersonating")
      expect(stop.fields.csrfToken).toMatch(/^[0-9a-f]{64}$/)
      // A cookie session names the user on every page; a database session wherever this process read it lately (the account page does).
      if (strategy === "jwt" || path === "/auth/account") {
        expect(textOf(byId(shown.parsed, "impersonation-banner-text")!)).toBe(`You are viewing the site as ${user.email}.`)
        expect(textOf(byId(shown.parsed, "impersonation-banner-ends")!)).toMatch(/^Until .*\d/)
      }
    }
  })

  test("its stop button brings the admin's own session back, to the user's page", async () => {
    const t = await setup({ strategy })
    const { user } = await impersonating(t, "stopped")
    const shown = await page(t.admin, "/auth/signin")
    const stop = formOf(shown.parsed, "impersonation-stop-form")
    const stopped = await t.admin.post(stop.action).type("form").send(stop.fields)
    expect(stopped.status).toBe(302)
    const back = new URL(stopped.headers.location as string)
    expect(back.pathname).toBe(`/auth/admin/${user.id}`)
    const after = await page(t.admin, `${back.pathname}${back.search}`)
    expect(after.status).toBe(200)
    expect(byId(after.parsed, "impersonation-banner")).toBeUndefined()
    expect(textOf(byId(after.parsed, "admin-status")!)).toBe("You stopped viewing the site as this user.")
  })

  test("says the impersonation ended when the browser keeps only the admin's stashed session", async () => {
    const t = await setup({ strategy })
    const { stash } = await impersonating(t, "ended")
    const alone = await request(t.app).get("/auth/signin").set("Host", "app.test").set("Cookie", stash)
    const parsed = parseHtml(alone.text)
    expect(textOf(byId(parsed, "impersonation-banner-text")!)).toBe("Your time viewing the site as another user has ended. Stop to get your own session back.")
    expect(byId(parsed, "impersonation-stop-form")).toBeDefined()
  })

  test("is in German with Accept-Language: de", async () => {
    const t = await setup({ strategy })
    const { user } = await impersonating(t, "german")
    const shown = await page(t.admin, "/auth/account", "de")
    expect(textOf(byId(shown.parsed, "impersonation-banner-text")!)).toBe(`Sie sehen die Website als ${user.email}.`)
    expect(textOf(byId(shown.parsed, "impersonation-stop")!)).toBe("Ansicht als dieser Benutzer beenden")
  })
})
