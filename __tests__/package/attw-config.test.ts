/**
 * `npm run check:package` runs @arethetypeswrong/cli with .attw.json. attw does not expand the
 * wildcard keys of `exports` (`./providers/*`, `./adapters/*`), so .attw.json names each of their
 * entry points: a provider or adapter added later must be listed there too, or its types go
 * unchecked. The one rule it ignores is `cjs-resolves-to-esm` (docs/commonjs.md says why); no other.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const config = JSON.parse(readFileSync(join(ROOT, ".attw.json"), "utf8")) as { ignoreRules?: string[]; includeEntrypoints?: string[]; profile?: string }

test("every provider and adapter entry point is listed for attw", () => {
  const providers = readdirSync(join(ROOT, "lib", "providers"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => `./providers/${name.slice(0, -3)}`)
  const adapters = readdirSync(join(ROOT, "adapters"))
    .filter((name) => existsSync(join(ROOT, "adapters", name, "index.ts")))
    .map((name) => `./adapters/${name}`)
  expect(providers.length).toBeGreaterThan(20)
  expect([...(config.includeEntrypoints ?? [])].sort()).toEqual([...providers, ...adapters].sort())
})

test("only cjs-resolves-to-esm is ignored, with the strict profile", () => {
  expect(config.ignoreRules).toEqual(["cjs-resolves-to-esm"])
  expect(config.profile).toBeUndefined()
})

test("check:package runs publint and attw on the packed package", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  // npm pack without its prepare script: the package as built (CI: by npm ci), not rebuilt while
  // the typecheck beside it reads dist/.
  expect(manifest.scripts["check:package"]).toBe("publint --strict && npm_config_ignore_scripts=true attw --pack .")
  expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toContain('"package=npm run check:package"')
})
