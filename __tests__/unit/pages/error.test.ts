/**
 * The error page's view model (lib/pages/error.ts): the `error` value selects a status, heading,
 * message and link from a fixed table; anything else gets the default page. Never echoed.
 */
import { errorModel } from "../../../lib/pages/error.js"
import { DEFAULT_ERROR_PAGE, ERROR_PAGES } from "../../../lib/core/error-messages.js"

const LINKS = { signIn: "https://app.example/auth/signin", home: "https://app.example" }
const HOME_LINK = { href: LINKS.home, text: "Go to the home page" }
const SIGN_IN_LINK = { href: LINKS.signIn, text: "Sign in again" }

describe("errorModel", () => {
  test("Configuration: 500, the server-error text, a link home", () => {
    expect(errorModel("Configuration", LINKS)).toEqual({
      type: "Configuration",
      status: 500,
      heading: ERROR_PAGES.Configuration!.heading,
      message: ERROR_PAGES.Configuration!.message,
      link: HOME_LINK,
    })
  })

  test("AccessDenied: 403 and a link to sign in again", () => {
    expect(errorModel("AccessDenied", LINKS)).toEqual({
      type: "AccessDenied",
      status: 403,
      heading: ERROR_PAGES.AccessDenied!.heading,
      message: ERROR_PAGES.AccessDenied!.message,
      link: SIGN_IN_LINK,
    })
  })

  test("Verification: 403 and a link to sign in again", () => {
    expect(errorModel("Verification", LINKS)).toEqual({
      type: "Verification",
      status: 403,
      heading: ERROR_PAGES.Verification!.heading,
      message: ERROR_PAGES.Verification!.message,
      link: SIGN_IN_LINK,
    })
  })

  test("no error value: the default page, status 200, a link home", () => {
    const expected = { type: "default", status: 200, heading: DEFAULT_ERROR_PAGE.heading, message: DEFAULT_ERROR_PAGE.message, link: HOME_LINK }
    expect(errorModel(undefined, LINKS)).toEqual(expected)
    expect(errorModel("", LINKS)).toEqual(expected)
  })

  test("the three documented pages differ from each other and from the default", () => {
    const headings = ["Configuration", "AccessDenied", "Verification", undefined].map((value) => errorModel(value, LINKS).heading)
    expect(new Set(headings).size).toBe(4)
  })

  test.each([
    "Unknown",
    "accessdenied",
    "ACCESSDENIED",
    "AccessDenied ",
    " Configuration",
    "CredentialsSignin",
    "SessionRequired",
    "<script>alert(1)</script>",
  ])("an unknown value (%j) gets the default page with status 200 and a link home", (value) => {
    const model = errorModel(value, LINKS)
    expect(model.status).toBe(200)
    expect(model.heading).toBe(DEFAULT_ERROR_PAGE.heading)
    expect(model.message).toBe(DEFAULT_ERROR_PAGE.message)
    expect(model.link).toEqual(HOME_LINK)
  })

  test.each(["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "prototype"])(
    "the prototype key %s gets the default page, not an inherited value",
    (value) => {
      const model = errorModel(value, LINKS)
      expect(model).toEqual({ type: "default", status: 200, heading: DEFAULT_ERROR_PAGE.heading, message: DEFAULT_ERROR_PAGE.message, link: HOME_LINK })
      expect(Number.isInteger(model.status)).toBe(true)
    },
  )

  test("the raw error value never appears in the model", () => {
    for (const probe of ["Probe-7d1e<b>", "AccessDenied<script>", "Configuration\"onload=\"x"]) {
      expect(JSON.stringify(errorModel(probe, LINKS))).not.toContain(probe)
      expect(JSON.stringify(errorModel(probe, LINKS))).not.toContain("7d1e")
    }
  })

  test("links use exactly the URLs given", () => {
    const links = { signIn: "https://other.example/login?x=1", home: "https://other.example/" }
    expect(errorModel("AccessDenied", links).link.href).toBe(links.signIn)
    expect(errorModel("Configuration", links).link.href).toBe(links.home)
    expect(errorModel(undefined, links).link.href).toBe(links.home)
  })

  test("the shared tables are frozen, so a model cannot change them", () => {
    expect(Object.isFrozen(ERROR_PAGES)).toBe(true)
    expect(Object.isFrozen(DEFAULT_ERROR_PAGE)).toBe(true)
    const model = errorModel("AccessDenied", LINKS)
    model.heading = "changed"
    expect(errorModel("AccessDenied", LINKS).heading).toBe(ERROR_PAGES.AccessDenied!.heading)
  })
})
