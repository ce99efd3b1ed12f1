/**
 * The built-in pages cannot be framed (X-Frame-Options: DENY and frame-ancestors 'none'): a page
 * that puts /auth/signin in an iframe shows no form inside, whether the framing page is about:blank,
 * a data: URL or the site itself.
 *
 * Chromium's Local Network Access checks already stop an about:blank or data: page from framing
 * anything on 127.0.0.1, which would make those cases pass for the wrong reason; this file's
 * browser turns them off, and a control shows that a page without framing protection (the
 * example's home page) does load in the same iframes.
 */
import type { Browser, Frame, Page, Response } from "playwright-core"
import { launchBrowser, openPage, startExample, type ExampleServer, type Watched } from "./harness.js"

let server: ExampleServer
let browser: Browser
let origin: string
const open: Watched[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startExample(), launchBrowser(["--disable-features=LocalNetworkAccessChecks"])])
  origin = server.origin
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function newPage(): Promise<Page> {
  const watched = await openPage(browser)
  open.push(watched)
  return watched.page
}

const FRAMERS: Record<string, (page: Page) => Promise<unknown>> = {
  "about:blank": (page) => page.goto("about:blank"),
  "data:": (page) => page.goto("data:text/html,<!doctype html><title>framer</title><body></body>"),
  "same-origin": (page) => page.goto(`${origin}/`),
}

/** Appends an iframe pointing at `src` to the current page and waits for the iframe's load event. */
async function frame(page: Page, src: string): Promise<{ response: Response; child: Frame }> {
  const response = page.waitForResponse((candidate) => candidate.url() === src)
  await page.evaluate(
    (url) =>
      new Promise<void>((resolve) => {
        const iframe = document.createElement("iframe")
        iframe.id = "framed"
        iframe.addEventListener("load", () => resolve(), { once: true })
        iframe.src = url
        document.body.append(iframe)
      }),
    src,
  )
  const child = page.frames().find((candidate) => candidate.parentFrame() === page.mainFrame())
  if (!child) throw new Error("the iframe has no frame")
  return { response: await response, child }
}

describe.each(Object.keys(FRAMERS))("framed from a %s page", (framer) => {
  test("control: the example's home page (no framing protection) loads inside the iframe", async () => {
    const page = await newPage()
    await FRAMERS[framer]!(page)
    const { child } = await frame(page, `${origin}/`)
    expect(child.url()).toBe(`${origin}/`)
    expect(await page.frameLocator("#framed").getByRole("heading", { name: "Gatehouse example" }).count()).toBe(1)
  })

  test.each(["/auth/signin", "/auth/signin?error=CredentialsSignin", "/auth/signout"])("%s shows no form inside the iframe", async (path) => {
    const page = await newPage()
    await FRAMERS[framer]!(page)
    const src = `${origin}${path}`
    const { response, child } = await frame(page, src)

    const headers = response.headers()
    expect(headers["x-frame-options"]).toBe("DENY")
    expect(headers["content-security-policy"]).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/)

    // The browser replaced the page with its own error document: nothing of ours is inside.
    expect(child.url()).not.toBe(src)
    const inside = page.frameLocator("#framed")
    expect(await inside.locator("form, input, label").count()).toBe(0)
    expect(await inside.getByText(/Sign in with|Are you sure you want to sign out/).count()).toBe(0)
    for (const other of page.frames()) {
      if (other !== page.mainFrame()) expect(await other.locator("form, input[name=csrfToken]").count()).toBe(0)
    }
  })
})
