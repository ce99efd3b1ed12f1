/**
 * The page gallery's tools for browser tests (issue #26): an axe-core check of the page in view
 * against WCAG 2.2 AA, and screenshots at a desktop and a phone size, light and dark. They are
 * written to `docs/screenshots/` (committed, shown in the docs) by `npm run screenshots`, and to a
 * directory under the system's temporary one otherwise, so a test run leaves the checkout as it was.
 *
 * axe-core is evaluated through the DevTools protocol, which the pages' Content-Security-Policy
 * does not govern, so the page under test keeps its own policy unchanged.
 */
import { readFileSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

export const SCREENSHOTS_DIR =
  process.env.GATEHOUSE_UPDATE_SCREENSHOTS === "1" ? join(dirname(fileURLToPath(import.meta.url)), "../../../docs/screenshots") : join(tmpdir(), "gatehouse-screenshots")

/** The two viewport sizes the issue names: a desktop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const

export type Scheme = "light" | "dark"

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  /** The CSS selectors of the offending elements, with axe's summary of what is wrong. */
  nodes: Array<{ target: string; summary: string }>
}

/** Runs axe-core (WCAG 2.0-2.2 A and AA rules) on the page as it is now; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object")
  if (!hasAxe) await page.evaluate(AXE_SOURCE)
  const results = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe
    const outcome = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
    return outcome.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String).join(" "), summary: node.failureSummary ?? "" })),
    }))
  }, AXE_TAGS)
  return results
}

/** A readable account of violations for a failing expectation (empty string when none). */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `  ${node.target}: ${node.summary}`).join("\n")}`).join("\n")
}

/**
 * Sets the page to a viewport and colour scheme, and writes a full-page screenshot as
 * `<name>-<desktop|mobile>-<light|dark>.png` in `SCREENSHOTS_DIR`. Returns the file's path.
 */
export async function screenshot(page: Page, name: string, viewport: keyof typeof VIEWPORTS, scheme: Scheme): Promise<string> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true })
  await page.setViewportSize(VIEWPORTS[viewport])
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" })
  const path = join(SCREENSHOTS_DIR, `${name}-${viewport}-${scheme}.png`)
  await page.screenshot({ path, fullPage: true, animations: "disabled", caret: "hide" })
  return path
}

/**
 * For each of the four (viewport, scheme) pairs: screenshot the page and check it with axe-core
 * (the contrast rules differ between light and dark). Returns the violations found, keyed by pair,
 * empty when the page passes everywhere. Leaves the page at the desktop size in light.
 */
export async function galleryShot(page: Page, name: string): Promise<Record<string, AxeViolation[]>> {
  const found: Record<string, AxeViolation[]> = {}
  for (const viewport of Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>) {
    for (const scheme of ["light", "dark"] as const) {
      await screenshot(page, name, viewport, scheme)
      const violations = await axeViolations(page)
      if (violations.length > 0) found[`${viewport}-${scheme}`] = violations
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop)
  await page.emulateMedia({ colorScheme: "light" })
  return found
}

/** The violations of `galleryShot` as one readable string (empty when none). */
export function describeGallery(found: Record<string, AxeViolation[]>): string {
  return Object.entries(found).map(([pair, violations]) => `[${pair}]\n${describeViolations(violations)}`).join("\n")
}
