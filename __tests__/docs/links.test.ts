/**
 * Every relative link in README.md, CHANGELOG.md and docs/ leads somewhere: the file or folder
 * exists, and a `#anchor` (in the same page or another Markdown page) is a heading of that page,
 * as GitHub names headings. External links (http:, https:, mailto:) are not fetched. Links inside
 * code (fenced blocks, `code spans`) are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..")

/** The Markdown files checked: the README, the changelog and every page under docs/. */
function pages(): string[] {
  const found = ["README.md", "CHANGELOG.md"]
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".md")) found.push(path)
    }
  }
  walk("docs")
  return found
}

/** The text outside fenced code blocks and code spans. */
function prose(text: string): string {
  let fenced = false
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced
        return ""
      }
      return fenced ? "" : line.replace(/`[^`]*`/g, "")
    })
    .join("\n")
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let fenced = false
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = fenced ? undefined : /^#{1,6} (.+)$/.exec(line)?.[1]
    if (!heading) continue
    const base = heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    out.add(count ? `${base}-${count}` : base)
  }
  return out
}

/** The links of `text` (a page at `page`, relative to the root) that lead nowhere, as `target: why`. */
export function brokenLinks(page: string, text: string, readPage = (path: string) => readFileSync(join(ROOT, path), "utf8")): string[] {
  const broken: string[] = []
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string
    if (/^(https?:|mailto:)/i.test(target)) continue
    const [path, anchor] = target.split("#") as [string, string | undefined]
    const file = path ? relative(ROOT, resolve(ROOT, dirname(page), decodeURIComponent(path))) : page
    if (path && (file.startsWith("..") || !existsSync(join(ROOT, file)))) {
      broken.push(`${target}: no such file`)
      continue
    }
    if (anchor === undefined) continue
    if (!file.endsWith(".md") || (path && statSync(join(ROOT, file)).isDirectory())) {
      broken.push(`${target}: an anchor into a file that is not a Markdown page`)
      continue
    }
    const headings = anchors(file === page ? text : readPage(file))
    if (!headings.has(decodeURIComponent(anchor))) broken.push(`${target}: no such heading in ${file}`)
  }
  return broken
}

test("the pages checked include the README, the changelog and the docs index", () => {
  expect(pages()).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/README.md", "docs/configuration.md"]))
})

test.each(pages())("every relative link and anchor in %s resolves", (page) => {
  const text = readFileSync(join(ROOT, page), "utf8")
  expect(brokenLinks(page, text)).toEqual([])
})

test("the check finds a missing file, a missing heading and a missing anchor in the same page", () => {
  const text = ["# Title", "", "## Known heading", "", "[a](no-such-page.md) [b](configuration.md#no-such-heading) [c](#nowhere) [d](#known-heading) [e](configuration.md#options) [f](https://example.com/x) `[g](in-code.md)`"].join("\n")
  expect(brokenLinks("docs/example.md", text)).toEqual([
    "no-such-page.md: no such file",
    "configuration.md#no-such-heading: no such heading in docs/configuration.md",
    "#nowhere: no such heading in docs/example.md",
  ])
})

test("GitHub's anchors: punctuation dropped, code marks dropped, repeated headings numbered", () => {
  expect([...anchors("# Passkeys (WebAuthn)\n## `csrfToken` helper\n## Errors\n## Errors\n```\n# not a heading\n```")]).toEqual(["passkeys-webauthn", "csrftoken-helper", "errors", "errors-1"])
})
