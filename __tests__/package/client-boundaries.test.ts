/**
 * gatehouse/client stays a browser module and the server stays free of it (issue #35):
 * - the client, compiled fresh by tsconfig.client.json (never into dist/), imports nothing of the
 *   server (no path out of its own folder, no `gatehouse` specifier) and no Node built-in: only its
 *   own files, @simplewebauthn/browser, and React for gatehouse/react;
 * - the core entry reaches @simplewebauthn/browser only through a dynamic import (a bundler splits
 *   it off; it loads when a passkey ceremony runs);
 * - lib/ imports nothing from client/.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc")
const ALLOWED_PACKAGES = new Set(["@simplewebauthn/browser", "react", "react/jsx-runtime"])
const BUILTINS = new Set(builtinModules)

interface Specifier {
  value: string
  dynamic: boolean
}

/** Every module specifier of a JavaScript or TypeScript source: static imports and re-exports, and dynamic `import()`. */
function specifiers(source: string): Specifier[] {
  const found: Specifier[] = []
  for (const match of source.matchAll(/(?:^|[\s;])(?:import|export)\s[^"'`;]*?\sfrom\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']/g)) {
    found.push({ value: (match[1] ?? match[2])!, dynamic: false })
  }
  for (const match of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ value: match[1]!, dynamic: true })
  return found
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

let out: string

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "gatehouse-client-build-"))
  const result = await new Promise<{ code: number; output: string }>((done) => {
    execFile(process.execPath, [TSC, "-p", "tsconfig.client.json", "--outDir", out, "--declaration", "false"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 100_000 }, (error, stdout, stderr) =>
      done({ code: error ? 1 : 0, output: `${stdout}${stderr}` }),
    )
  })
  if (result.code !== 0) throw new Error(`tsc -p tsconfig.client.json failed:\n${result.output}`)
}, 110_000)

afterAll(() => rmSync(out, { recursive: true, force: true }))

test("the compiled client imports only its own files, @simplewebauthn/browser and React: nothing of the server, no Node built-in", () => {
  const files = filesUnder(out, /\.js$/)
  expect(files.map((file) => relative(out, file))).toContain("index.js")
  const refused: string[] = []
  for (const file of files) {
    for (const { value } of specifiers(readFileSync(file, "utf8"))) {
      const where = `${relative(out, file)} imports "${value}"`
      if (value.startsWith(".")) {
        const target = resolve(dirname(file), value)
        if (relative(out, target).startsWith("..")) refused.push(`${where} (outside the client)`)
      } else if (value.startsWith("node:") || BUILTINS.has(value)) refused.push(`${where} (a Node built-in)`)
      else if (!ALLOWED_PACKAGES.has(value)) refused.push(`${where} (not a client dependency)`)
    }
  }
  expect(refused).toEqual([])
})

test("the core entry reaches @simplewebauthn/browser only through a dynamic import, and never React", () => {
  const statics = new Set<string>()
  const dynamics = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const { value, dynamic } of specifiers(readFileSync(file, "utf8"))) {
      if (value.startsWith(".")) visit(resolve(dirname(file), value))
      else (dynamic ? dynamics : statics).add(value)
    }
  }
  visit(join(out, "index.js"))
  expect([...statics]).toEqual([])
  expect([...dynamics]).toEqual(["@simplewebauthn/browser"])
  expect([...seen].map((file) => relative(out, file))).not.toContain("react.js")
})

test("lib/ imports nothing from client/", () => {
  const client = join(ROOT, "client")
  const refused: string[] = []
  for (const file of filesUnder(join(ROOT, "lib"), /\.(ts|js)$/)) {
    for (const { value } of specifiers(readFileSync(file, "utf8"))) {
      const fromClient = value.startsWith(".") ? !relative(client, resolve(dirname(file), value)).startsWith("..") : /^gatehouse\/(client|react)\b/.test(value)
      if (fromClient) refused.push(`${relative(ROOT, file)} imports "${value}"`)
    }
  }
  expect(refused).toEqual([])
})

test("the import scanner sees static, re-exported, bare and dynamic imports (so the checks above can fail)", () => {
  const source = `import { a } from "node:fs"\nexport { b } from "../../lib/index.js"\nimport "side-effect"\nconst m = await import("@simplewebauthn/browser")\nimport type { T } from "gatehouse"`
  expect(specifiers(source).map((found) => `${found.dynamic ? "dynamic " : ""}${found.value}`)).toEqual(["node:fs", "../../lib/index.js", "side-effect", "gatehouse", "dynamic @simplewebauthn/browser"])
})
