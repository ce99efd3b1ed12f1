/**
 * The API keys' pages (issue #31) as a browser meets them: the account page's "API keys" section
 * (the list, the create form, revoke, the status line), the page that shows a new key once (and the
 * key then working on an app route until revoked), the organization page's section for a member
 * who may change the organization (and not for a plain member), in the request's language, with
 * every field labelled and the headings in order.
 */
import express, { type Express } from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { InvitationMail } from "../../lib/index.js"
import type { ApiKeysOptions } from "../../lib/api-keys/settings.js"
import { SECRET, request, type Agent } from "../helpers/app.js"
import { credentialsProvider, csrfOf, organizationOf, signIn, storedUser, tokenOf, type Client } from "../integration/organizations/support.js"
import { attr, byTag, parseHtml, textOf, type Element, type Parsed } from "../unit/pages/html.js"

const DAY = 86_400

interface Setup {
  app: Express
  adapter: Adapter
  mails: InvitationMail[]
}

/** The app: the router with API keys and organizations, `authSession`, and `GET /api/any` (a key or a session). */
function setup(apiKeys: ApiKeysOptions = { scopes: ["read", "write"] }): Setup {
  const adapter = MemoryAdapter()
  const mails: InvitationMail[] = []
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    rateLimit: false,
    apiKeys,
    organizations: {
      roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } },
      sendInvitation: (mail: InvitationMail) => {
        mails.push(mail)
      },
    },
  } as unknown as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/api/any", requireAuth(config, { apiKey: true }), (req, res) => {
    res.json({ via: req.auth?.via ?? null, email: req.auth?.user?.email ?? null })
  })
  return { app, adapter, mails }
}

async function someone(t: Setup, label: string): Promise<Client> {
  return signIn(t.app, await storedUser(t.adapter, label))
}

/** A page as a browser shows it (a redirect within the site followed). */
async function page(agent: Agent, path: string, language?: string) {
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
  return { status: response.status, parsed, text: textOf(parsed.document).replace(/\s+/g, " "), html: response.text, headers: response.headers }
}

const byId = (parsed: Parsed, id: string): Element | undefined => parsed.elements.find((element) => attr(element, "id") === id)
const textById = (parsed: Parsed, id: string): string => {
  const element = byId(parsed, id)
  if (!element) throw new Error(`no #${id}`)
  return textOf(element).replace(/\s+/g, " ").trim()
}

function isInside(element: Element, ancestor: Element): boolean {
  for (let node = element.parentNode as Element | null; node; node = node.parentNode as Element | null) if (node === ancestor) return true
  return false
}

/** The hidden fields and action of a form, as a browser would send it. */
function formOf(parsed: Parsed, id: string): { action: string; fields: Record<string, string>; element: Element } {
  const form = byId(parsed, id)
  if (!form) throw new Error(`no form #${id}`)
  const fields: Record<string, string> = {}
  const inputs = parsed.elements.filter((element) => element.tagName === "input" && attr(element, "type") === "hidden" && isInside(element, form))
  for (const input of inputs) fields[attr(input, "name") as string] = attr(input, "value") ?? ""
  return { action: new URL(attr(form, "action") as string).pathname, fields, element: form }
}

/** Posts a form the way a browser does: urlencoded, a repeated name for each checked box. */
async function submit(agent: Agent, action: string, fields: Array<[string, string]>, language?: string) {
  const call = agent.post(action).type("form").set("Accept", "text/html")
  return (language ? call.set("Accept-Language", language) : call).send(new URLSearchParams(fields).toString())
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

/** The page's CSS never names `select` (its themes style class="field-choice"). */
function expectNoSelectInCss(parsed: Parsed) {
  const css = byTag(parsed, "style").map((style) => textOf(style)).join("")
  expect(css.length).toBeGreaterThan(0)
  expect(css).not.toMatch(/select/i)
}

/** The key a created-key page shows. */
function shownKey(parsed: Parsed): string {
  const field = byId(parsed, "api-key-created-value")
  if (!field) throw new Error("no key field")
  expect(attr(field, "readonly")).toBeDefined()
  return attr(field, "value") as string
}

/** Makes a key through the account page's form (checking the boxes of `scopes`); the created page and its key. */
async function createThroughForm(agent: Agent, path: string, name: string, scopes: string[], language?: string) {
  const shown = await page(agent, path, language)
  const form = formOf(shown.parsed, "api-keys-create-form")
  const select = byId(shown.parsed, "api-keys-expires")!
  const expiry = byTag(shown.parsed, "option").find((option) => isInside(option, select) && attr(option, "selected") !== undefined)
  const response = await submit(agent, form.action, [...Object.entries(form.fields), ["name", name], ...scopes.map((scope): [string, string] => ["scopes", scope]), ["expiresIn", attr(expiry!, "value") ?? ""]], language)
  const parsed = parseHtml(response.text)
  return { response, parsed, key: response.status === 200 ? shownKey(parsed) : "", form }
}

describe("the account page's API keys", () => {
  test("lists no keys at first and offers the create form: name, the declared scopes as checkboxes, the expiry choices", async () => {
    const t = setup()
    const ada = await someone(t, "ada")
    const shown = await page(ada.agent, "/auth/account")
    expect(shown.status).toBe(200)
    expect(shown.parsed.errors).toEqual([])
    expect(textById(shown.parsed, "api-keys-heading")).toBe("API keys")
    expect(byId(shown.parsed, "api-keys-none")).toBeDefined()
    // The in-page navigation links to the section.
    expect(byTag(shown.parsed, "a").some((a) => attr(a, "href") === "#api-keys")).toBe(true)
    const form = formOf(shown.parsed, "api-keys-create-form")
    expect(form.action).toBe("/auth/api-keys/create")
    expect(form.fields.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(new URL(form.fields.callbackUrl!).pathname).toBe("/auth/account")
    expect(form.fields.organizationId).toBeUndefined()
    const boxes = byTag(shown.parsed, "input").filter((input) => attr(input, "name") === "scopes")
    expect(boxes.map((box) => [attr(box, "type"), attr(box, "value")])).toEqual([
      ["checkbox", "read"],
      ["checkbox", "write"],
    ])
    const select = byId(shown.parsed, "api-keys-expires")!
    expect(select.tagName).toBe("select")
    expect(attr(select, "class")).toBe("field-choice")
    expect(attr(select, "name")).toBe("expiresIn")
    expect(byTag(shown.parsed, "option").map((option) => attr(option, "value"))).toEqual([String(30 * DAY), String(90 * DAY), String(365 * DAY), ""])
    expect(byTag(shown.parsed, "option").map((option) => textOf(option))).toEqual(["In 30 days", "In 90 days", "In 365 days", "Never"])
    expectLabelled(shown.parsed)
    expectHeadingsInOrder(shown.parsed)
    expectNoSelectInCss(shown.parsed)
  })

  test("the form shows the new key once; it works on the app's route, is listed (never in full), and once revoked is refused", async () => {
    const t = setup()
    const ada = await someone(t, "ada")
    const locations: string[] = []
    const created = await createThroughForm(ada.agent, "/auth/account", "Deploy script", ["read", "write"])
    expect(created.response.status).toBe(200)
    expect(created.response.headers["cache-control"]).toBe("no-store")
    expect(created.response.headers.location).toBeUndefined()
    expect(created.parsed.errors).toEqual([])
    const key = created.key
    expect(key).toMatch(/^gk_[A-Za-z0-9]{20,}/)
    expect(textById(created.parsed, "api-key-created-heading")).toBe("Your new API key")
    expect(textById(created.parsed, "api-key-created-once")).toContain("cannot be shown again")
    expect(textById(created.parsed, "api-key-created-name")).toBe("Name: Deploy script")
    expect(textById(created.parsed, "api-key-created-scopes")).toBe("Scopes: read, write")
    expect(textById(created.parsed, "api-key-created-expires")).toMatch(/^Expires: \S/)
    const back = attr(byId(created.parsed, "api-key-created-back")!, "href")!
    expect(new URL(back).pathname).toBe("/auth/account")
    expect(back).not.toContain(key)
    expectLabelled(created.parsed)
    expectHeadingsInOrder(created.parsed)

    // The key signs a request in on a route that takes keys.
    const used = await request(t.app).get("/api/any").set("Host", "app.test").set("Authorization", `Bearer ${key}`)
    expect(used.status).toBe(200)
    expect(used.body).toEqual({ via: "apiKey", email: ada.email })

    // The account page lists it by its first characters only.
    const listed = await page(ada.agent, "/auth/account")
    expect(listed.html).not.toContain(key)
    const item = byTag(listed.parsed, "li").find((li) => attr(li, "class") === "device item" && textOf(li).includes("Deploy script"))!
    const id = attr(item, "id")!
    expect(textById(listed.parsed, `${id}-name`)).toBe("Deploy script")
    expect(textById(listed.parsed, `${id}-start`)).toBe(`Starts with ${key.slice(0, 7)}…`)
    expect(textById(listed.parsed, `${id}-scopes`)).toBe("Scopes: read, write")
    expect(textById(listed.parsed, `${id}-created`)).toMatch(/^Created: \S/)
    expect(textById(listed.parsed, `${id}-expires`)).not.toBe("Expires: never")
    expect(textById(listed.parsed, `${id}-revoke`)).toBe("Revoke the key Deploy script")

    // Revoke: back to the account page with the section's status line, and the key no longer works.
    const revokeForm = formOf(listed.parsed, `${id}-revoke-form`)
    expect(revokeForm.action).toBe("/auth/api-keys/revoke")
    const revoked = await submit(ada.agent, revokeForm.action, Object.entries(revokeForm.fields))
    expect(revoked.status).toBe(302)
    locations.push(String(revoked.headers.location))
    const after = await page(ada.agent, new URL(revoked.headers.location as string).pathname + new URL(revoked.headers.location as string).search)
    expect(textById(after.parsed, "api-keys-status")).toBe("The key was revoked.")
    // Said once, in the section (not again at the page's top).
    expect(byTag(after.parsed, "p").filter((p) => attr(p, "role") === "status")).toHaveLength(1)
    expect(byId(after.parsed, "api-keys-none")).toBeDefined()
    const refused = await request(t.app).get("/api/any").set("Host", "app.test").set("Authorization", `Bearer ${key}`)
    expect(refused.status).toBe(401)
    for (const location of locations) expect(location).not.toContain(key)
  })

  test("a key that has been used says when; one without expiry says never", async () => {
    const t = setup()
    const ada = await someone(t, "ada")
    const shown = await page(ada.agent, "/auth/account")
    const form = formOf(shown.parsed, "api-keys-create-form")
    const created = await submit(ada.agent, form.action, [...Object.entries(form.fields), ["name", "Forever"], ["expiresIn", ""]])
    const key = shownKey(parseHtml(created.text))
    expect(textById(parseHtml(created.text), "api-key-created-expires")).toBe("It does not expire.")
    const before = await page(ada.agent, "/auth/account")
    const id = attr(byTag(before.parsed, "li").find((li) => textOf(li).includes("Forever"))!, "id")!
    expect(textById(before.parsed, `${id}-expires`)).toBe("Expires: never")
    expect(textById(before.parsed, `${id}-last-used`)).toBe("Last used: never")
    expect(textById(before.parsed, `${id}-scopes`)).toBe("Scopes: none")
    await request(t.app).get("/api/any").set("Host", "app.test").set("Authorization", `Bearer ${key}`).expect(200)
    const after = await page(ada.agent, "/auth/account")
    expect(textById(after.parsed, `${id}-last-used`)).not.toBe("Last used: never")
    expect(textById(after.parsed, `${id}-last-used`)).toMatch(/^Last used: \S/)
  })

  test("a refused form comes back with the section's own words, never the query's; the page's other forms keep their status line", async () => {
    const t = setup()
    const ada = await someone(t, "ada")
    const shown = await page(ada.agent, "/auth/account")
    const form = formOf(shown.parsed, "api-keys-create-form")
    const refused = await submit(ada.agent, form.action, [...Object.entries(form.fields), ["name", "   "], ["expiresIn", ""]])
    expect(refused.status).toBe(302)
    const location = new URL(refused.headers.location as string)
    expect(location.searchParams.get("error")).toBe("InvalidRequest")
    const back = await page(ada.agent, `${location.pathname}${location.search}`)
    expect(textById(back.parsed, "api-keys-status")).toContain("name of 1 to 100 characters")
    expect(byTag(back.parsed, "p").filter((p) => attr(p, "role") === "alert")).toHaveLength(1)

    const scope = await submit(ada.agent, form.action, [...Object.entries(form.fields), ["name", "Too much"], ["scopes", "admin"], ["expiresIn", ""]])
    const scopeBack = await page(ada.agent, new URL(scope.headers.location as string).pathname + new URL(scope.headers.location as string).search)
    expect(textById(scopeBack.parsed, "api-keys-status")).toBe("The key cannot have a scope you chose. Choose only among those offered.")

    const forged = await page(ada.agent, "/auth/account?from=api-keys&error=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    expect(forged.html).not.toContain("<script>alert")
    expect(textById(forged.parsed, "api-keys-status")).not.toContain("alert")
    // Without the section's mark, an error is the account page's (its name form's, here).
    const other = await page(ada.agent, "/auth/account?error=InvalidRequest")
    expect(byId(other.parsed, "api-keys-status")).toBeUndefined()
    expect(other.text).toContain("Enter a name of 1 to 100 characters.")
  })

  test("with apiKeys.maxAge the expiry offers only what it allows, never 'never'", async () => {
    const t = setup({ scopes: [], maxAge: 100 * DAY })
    const ada = await someone(t, "ada")
    const shown = await page(ada.agent, "/auth/account")
    expect(byTag(shown.parsed, "option").map((option) => attr(option, "value"))).toEqual([String(30 * DAY), String(90 * DAY), String(100 * DAY)])
    // No scopes declared: no checkboxes.
    expect(byTag(shown.parsed, "input").filter((input) => attr(input, "name") === "scopes")).toEqual([])
    expect(byTag(shown.parsed, "fieldset").filter((fieldset) => isInside(fieldset, byId(shown.parsed, "api-keys")!))).toEqual([])
  })

  test("in German with Accept-Language: de, the section and the created page", async () => {
    const t = setup()
    const ada = await someone(t, "ada")
    const shown = await page(ada.agent, "/auth/account", "de")
    expect(shown.headers["content-language"]).toBe("de")
    expect(textById(shown.parsed, "api-keys-heading")).toBe("API-Schlüssel")
    expect(textById(shown.parsed, "api-keys-create")).toBe("Schlüssel erstellen")
    expect(textOf(byTag(shown.parsed, "label").find((label) => attr(label, "for") === "api-keys-name")!)).toBe("Name des Schlüssels")
    expect(byTag(shown.parsed, "option").map((option) => textOf(option))).toEqual(["In 30 Tagen", "In 90 Tagen", "In 365 Tagen", "Nie"])
    const created = await createThroughForm(ada.agent, "/auth/account", "Skript", ["read"], "de")
    expect(created.response.status).toBe(200)
    expect(created.response.headers["content-language"]).toBe("de")
    expect(textById(created.parsed, "api-key-created-heading")).toBe("Ihr neuer API-Schlüssel")
    expect(textById(created.parsed, "api-key-created-once")).toContain("nicht erneut angezeigt")
    expect(textById(created.parsed, "api-key-created-scopes")).toBe("Geltungsbereiche: read")
  })
})

describe("the organization page's API keys", () => {
  async function organizationWithMember(t: Setup) {
    const owner = await someone(t, "olivia")
    const organization = await organizationOf(owner)
    const member = await someone(t, "max")
    const sent = await owner.act("invite", { organizationId: organization.id, email: member.email })
    expect(sent.status).toBe(200)
    const accepted = await member.act("accept", { token: tokenOf(t.mails.at(-1)!) })
    expect(accepted.status).toBe(200)
    return { owner, member, organization, path: `/auth/organization/${organization.slug as string}` }
  }

  test("an owner gets the section: the organization's id in the form, their own permissions as the scopes; a plain member does not", async () => {
    const t = setup()
    const { owner, member, organization, path } = await organizationWithMember(t)
    const shown = await page(owner.agent, path)
    expect(shown.status).toBe(200)
    expect(shown.parsed.errors).toEqual([])
    expect(textById(shown.parsed, "api-keys-heading")).toBe("API keys")
    const form = formOf(shown.parsed, "api-keys-create-form")
    expect(form.fields.organizationId).toBe(organization.id)
    expect(new URL(form.fields.callbackUrl!).pathname).toBe(path)
    const scopes = byTag(shown.parsed, "input").filter((input) => attr(input, "name") === "scopes").map((input) => attr(input, "value"))
    expect(scopes).toEqual(expect.arrayContaining(["organization:update", "project:read", "project:write"]))
    expect(textOf(byTag(shown.parsed, "legend").find((legend) => isInside(legend, form.element))!)).toBe("Permissions")
    expectLabelled(shown.parsed)
    expectHeadingsInOrder(shown.parsed)
    expectNoSelectInCss(shown.parsed)

    const plain = await page(member.agent, path)
    expect(plain.status).toBe(200)
    expect(byId(plain.parsed, "api-keys")).toBeUndefined()
    expect(byId(plain.parsed, "api-keys-create-form")).toBeUndefined()
    // The action refuses them too: no key is made.
    const fields = { ...form.fields, csrfToken: await csrfOf(member.agent) }
    const tried = await submit(member.agent, "/auth/api-keys/create", [...Object.entries(fields), ["name", "Sneaky"], ["expiresIn", ""]])
    expect(tried.status).toBe(302)
    expect(new URL(tried.headers.location as string).searchParams.get("error")).toBe("PermissionDenied")
    expect(await t.adapter.listApiKeys!({ organizationId: organization.id })).toEqual([])
  })

  test("an owner's key: made through the form, listed with who made it, back link to the organization, revoked from there", async () => {
    const t = setup()
    const { owner, organization, path } = await organizationWithMember(t)
    const created = await createThroughForm(owner.agent, path, "CI", ["project:read"])
    expect(created.response.headers.location).toBeUndefined()
    expect(created.response.status).toBe(200)
    expect(created.response.headers["cache-control"]).toBe("no-store")
    expect(new URL(attr(byId(created.parsed, "api-key-created-back")!, "href")!).pathname).toBe(path)
    const used = await request(t.app).get("/api/any").set("Host", "app.test").set("Authorization", `Bearer ${created.key}`)
    expect(used.status).toBe(200)

    const shown = await page(owner.agent, path)
    expect(shown.html).not.toContain(created.key)
    const [stored] = await t.adapter.listApiKeys!({ organizationId: organization.id })
    const id = `api-key-${stored!.id}`
    expect(textById(shown.parsed, `${id}-name`)).toBe("CI")
    expect(textById(shown.parsed, `${id}-scopes`)).toBe("Scopes: project:read")
    expect(textById(shown.parsed, `${id}-by`)).toBe("Created by: Olivia")
    const revoke = formOf(shown.parsed, `${id}-revoke-form`)
    const revoked = await submit(owner.agent, revoke.action, Object.entries(revoke.fields))
    expect(revoked.status).toBe(302)
    const location = new URL(revoked.headers.location as string)
    expect(location.pathname).toBe(path)
    const after = await page(owner.agent, `${location.pathname}${location.search}`)
    expect(textById(after.parsed, "api-keys-status")).toBe("The key was revoked.")
    expect(byId(after.parsed, "org-status")).toBeUndefined()
    await request(t.app).get("/api/any").set("Host", "app.test").set("Authorization", `Bearer ${created.key}`).expect(401)
  })
})
