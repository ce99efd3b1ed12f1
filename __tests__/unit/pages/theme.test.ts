/**
 * The pages' stylesheet and policy (lib/pages/theme.ts): brand colours in the CSS, the palettes
 * of each colour scheme, the CSP hash of exactly that CSS, computed once per theme object, and a
 * policy that allows nothing but that stylesheet, images and same-page forms.
 */
import { createHash } from "node:crypto"
import { pageCsp, themeStyle } from "../../../lib/pages/theme.js"
import type { Theme } from "../../../lib/types.js"

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64")

const LIGHT_BG = "--bg:#f4f4f5"
const DARK_BG = "--bg:#09090b"

/** The CSP directives as a map of name to sources. */
function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) {
      expect(map.has(name.toLowerCase())).toBe(false)
      map.set(name.toLowerCase(), sources)
    }
  }
  return map
}

describe("themeStyle: CSS", () => {
  test("defaults: blue brand, white button text, auto colour scheme, no logo", () => {
    const style = themeStyle({})
    expect(style.css).toContain("--brand:#2563eb")
    expect(style.css).toContain("--button-text:#fff")
    expect(style.colorScheme).toBe("auto")
    expect(style.logo).toBeUndefined()
  })

  test.each(["#0f766e", "teal", "rgb(37 99 235)", "oklch(0.6 0.2 250)", "#ABCDEF80"])("the brand colour %s is the --brand variable", (brandColor) => {
    const { css } = themeStyle({ brandColor })
    expect(css).toContain(`--brand:${brandColor};`)
    expect(css).toContain("background:var(--brand)")
  })

  test.each(["#000", "black", "hsl(0 0% 10%)"])("buttonText %s is the --button-text variable used by buttons", (buttonText) => {
    const { css } = themeStyle({ buttonText })
    expect(css).toContain(`--button-text:${buttonText}`)
    expect(css).toContain("color:var(--button-text)")
  })

  test("surrounding whitespace of the colours is trimmed", () => {
    const { css } = themeStyle({ brandColor: "  #123456 ", buttonText: "\tred\n" })
    expect(css).toContain("--brand:#123456;")
    expect(css).toContain("--button-text:red;")
  })

  test("light: only the light palette, color-scheme light, no media query", () => {
    const style = themeStyle({ colorScheme: "light" })
    expect(style.colorScheme).toBe("light")
    expect(style.css).toContain(LIGHT_BG)
    expect(style.css).not.toContain(DARK_BG)
    expect(style.css).not.toContain("prefers-color-scheme")
    expect(style.css).toContain("color-scheme:light}")
  })

  test("dark: only the dark palette, color-scheme dark, no media query", () => {
    const style = themeStyle({ colorScheme: "dark" })
    expect(style.colorScheme).toBe("dark")
    expect(style.css).toContain(DARK_BG)
    expect(style.css).not.toContain(LIGHT_BG)
    expect(style.css).not.toContain("prefers-color-scheme")
    expect(style.css).toContain("color-scheme:dark}")
  })

  test("auto (and the default): light palette, dark palette inside prefers-color-scheme: dark", () => {
    for (const theme of [{ colorScheme: "auto" } as Theme, {}]) {
      const { css, colorScheme } = themeStyle(theme)
      expect(colorScheme).toBe("auto")
      expect(css).toContain("color-scheme:light dark")
      const media = css.indexOf("@media (prefers-color-scheme:dark)")
      expect(media).toBeGreaterThan(-1)
      expect(css.indexOf(LIGHT_BG)).toBeLessThan(media)
      expect(css.indexOf(DARK_BG)).toBeGreaterThan(media)
    }
  })

  test("the palettes define the same variables", () => {
    const names = (css: string) => [...css.matchAll(/(--[a-z-]+):/g)].map((m) => m[1]).filter((n) => n !== "--brand" && n !== "--button-text")
    expect(names(themeStyle({ colorScheme: "dark" }).css)).toEqual(names(themeStyle({ colorScheme: "light" }).css))
  })

  test("the CSS cannot close its <style> element and has no url() or @import (nothing to fetch)", () => {
    for (const theme of [{}, { colorScheme: "dark" }, { colorScheme: "light", brandColor: "teal", buttonText: "black" }] as Theme[]) {
      const { css } = themeStyle(theme)
      expect(css).not.toMatch(/<\/?style|<!--|-->/i)
      expect(css).not.toMatch(/url\(|@import|expression\(/i)
      expect(css).not.toContain("\n")
    }
  })

  test("the logo is passed through", () => {
    expect(themeStyle({ logo: "https://cdn.example/logo.svg" }).logo).toBe("https://cdn.example/logo.svg")
  })
})

describe("themeStyle: hash and cache", () => {
  test.each([{}, { colorScheme: "dark" }, { colorScheme: "light" }, { brandColor: "rgb(1 2 3)", buttonText: "#000" }] as Theme[])(
    "the hash is 'sha256-<base64 of SHA-256 of the CSS>' (%p)",
    (theme) => {
      const style = themeStyle(theme)
      expect(style.hash).toBe(`'sha256-${sha256(style.css)}'`)
      expect(style.hash).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/)
    },
  )

  test("computed once per theme object: the same object returns the same style", () => {
    const theme: Theme = { brandColor: "#101010" }
    const first = themeStyle(theme)
    expect(themeStyle(theme)).toBe(first)
  })

  test("equal themes in different objects give equal (but separately computed) styles", () => {
    const a = themeStyle({ brandColor: "#202020" })
    const b = themeStyle({ brandColor: "#202020" })
    expect(b).not.toBe(a)
    expect(b).toEqual(a)
  })

  test("different themes give different CSS and different hashes", () => {
    const hashes = [{}, { colorScheme: "dark" }, { colorScheme: "light" }, { brandColor: "red" }, { buttonText: "red" }].map((t) => themeStyle(t as Theme).hash)
    expect(new Set(hashes).size).toBe(hashes.length)
  })
})

describe("pageCsp", () => {
  const style = themeStyle({ brandColor: "#0f766e" })
  const policy = pageCsp(style)
  const map = directives(policy)

  test("default-src 'none': scripts, objects, frames, fonts, connections are all refused", () => {
    expect(map.get("default-src")).toEqual(["'none'"])
    for (const name of ["script-src", "script-src-elem", "script-src-attr", "object-src", "frame-src", "child-src", "connect-src", "font-src", "worker-src", "manifest-src", "media-src"]) {
      expect(map.has(name)).toBe(false)
    }
  })

  test("style-src allows exactly the stylesheet's hash", () => {
    expect(map.get("style-src")).toEqual([style.hash])
    expect(map.has("style-src-attr")).toBe(false)
    expect(map.has("style-src-elem")).toBe(false)
  })

  test("never 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', data: or a wildcard", () => {
    expect(policy).not.toContain("unsafe-inline")
    expect(policy).not.toContain("unsafe-eval")
    expect(policy).not.toContain("unsafe-hashes")
    expect(policy).not.toMatch(/(^|\s)(\*|data:|blob:)(\s|;|$)/)
  })

  test("frame-ancestors 'none' and base-uri 'none'", () => {
    expect(map.get("frame-ancestors")).toEqual(["'none'"])
    expect(map.get("base-uri")).toEqual(["'none'"])
  })

  test("images only from this site and http(s) URLs (for logos)", () => {
    expect(map.get("img-src")).toEqual(["'self'", "https:", "http:"])
  })

  test("the policy follows the theme's hash", () => {
    const dark = themeStyle({ colorScheme: "dark" })
    expect(pageCsp(dark)).toContain(dark.hash)
    expect(pageCsp(dark)).not.toContain(style.hash)
  })
})
