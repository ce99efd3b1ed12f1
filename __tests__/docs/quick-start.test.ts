/**
 * The README's Quick start, as a reader would use it:
 * - its code block is examples/quick-start/index.ts, word for word, and index.js is the same
 *   program without its types (both compared after TypeScript's transpiler has printed them);
 * - the block type-checks as pasted into an app that installed Gatehouse (the built package and
 *   its dependencies), express, @types/express and @types/node: `strict`, `skipLibCheck` off;
 * - index.js runs (`node examples/quick-start/index.js`): the dashboard is refused without a
 *   session, demo / demo signs in through the credentials callback, a wrong password does not;
 * - what it says about CommonJS is what require() gives (see also __tests__/cjs/).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import ts from "typescript"
import { ensureBuilt, ROOT } from "../helpers/build.js"
import { freePort } from "../helpers/ports.js"

const README = readFileSync(join(ROOT, "README.md"), "utf8")
const TS_FILE = readFileSync(join(ROOT, "examples", "quick-start", "index.ts"), "utf8")
const JS_FILE = readFileSync(join(ROOT, "examples", "quick-start", "index.js"), "utf8")

/** The ```ts blocks under "## Quick start". */
function quickStartBlocks(): string[] {
  const start = README.indexOf("\n## Quick start\n")
  const end = README.indexOf("\n## ", start + 1)
  const section = README.slice(start, end < 0 ? undefined : end)
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string)
}

/** The program as TypeScript's printer writes it, types removed: two sources are the same program when these are equal. */
function printed(source: string): string {
  const output = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText
  return output.replace(/\n\s*\n/g, "\n")
}

test("the README's Quick start is examples/quick-start/index.ts, and index.js is the same program without types", () => {
  const blocks = quickStartBlocks()
  expect(blocks).toHaveLength(1)
  expect(blocks[0]).toBe(TS_FILE)
  expect(printed(JS_FILE)).toBe(printed(TS_FILE))
  expect(TS_FILE).toContain("satisfies AuthConfig")
  expect(README).toContain("](examples/quick-start/index.js)")
})

/** The ```js block under "## Quick start" (its CommonJS lines). */
function commonJsBlock(): string {
  const start = README.indexOf("\n## Quick start\n")
  const section = README.slice(start, README.indexOf("\n## ", start + 1))
  return /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
}

test("the README's CommonJS lines run as pasted in a CommonJS script: named exports as they are, a provider's factory as .default", async () => {
  const block = commonJsBlock()
  expect(block).toContain('require("gatehouse/providers/credentials").default')
  await ensureBuilt()
  const script = `${block}\nconsole.log(JSON.stringify({ authRouter: typeof authRouter, authSession: typeof authSession, requireAuth: typeof requireAuth, provider: Credentials({ credentials: {}, authorize: async () => null }).id }))`
  const output = await new Promise<string>((done, fail) => {
    // `node --input-type=commonjs -e`, in the checkout: "gatehouse" resolves through the package's own exports to dist/.
    execFile(process.execPath, ["--input-type=commonjs", "-e", script], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${stdout}${stderr}`)) : done(stdout),
    )
  })
  expect(JSON.parse(output)).toEqual({ authRouter: "function", authSession: "function", requireAuth: "function", provider: "credentials" })
}, 180_000)

describe("compiled and run", () => {
  beforeAll(ensureBuilt, 180_000)

  test("the Quick start type-checks as pasted: strict, skipLibCheck off, against the built package", async () => {
    const app = mkdtempSync(join(tmpdir(), "gatehouse-quick-start-"))
    try {
      // node_modules as `npm install gatehouse express @types/express @types/node` leaves it:
      // Gatehouse as published (package.json, dist/) with its dependencies, and the app's installs.
      const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }
      const installed = join(app, "node_modules", "gatehouse")
      const link = (dir: string, name: string) => {
        mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true })
        symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir")
      }
      mkdirSync(installed, { recursive: true })
      cpSync(join(ROOT, "package.json"), join(installed, "package.json"))
      symlinkSync(join(ROOT, "dist"), join(installed, "dist"), "dir")
      for (const name of Object.keys(manifest.dependencies)) link(installed, name)
      for (const name of ["express", "@types/express", "@types/node"]) link(app, name)
      writeFileSync(join(app, "package.json"), JSON.stringify({ name: "quick-start", private: true, type: "module" }))
      writeFileSync(join(app, "index.ts"), quickStartBlocks()[0] as string)
      const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: false }
      writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts"] }))
      const output = await new Promise<string>((done) => {
        execFile(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", app], { cwd: app, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 170_000 }, (error, stdout, stderr) =>
          done(error ? `${stdout}${stderr}` || String(error) : ""),
        )
      })
      expect(output).toBe("")
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  }, 180_000)

  describe("node examples/quick-start/index.js", () => {
    let child: ChildProcess
    let origin: string

    beforeAll(async () => {
      const port = await freePort()
      origin = `http://127.0.0.1:${port}`
      child = spawn(process.execPath, [join(ROOT, "examples", "quick-start", "index.js")], {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: "", PORT: String(port), AUTH_SECRET: "quick-start-test-secret-7c1e9b3a5d2f4860aa" },
        stdio: ["ignore", "pipe", "pipe"],
      })
      // Listening once it answers.
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the example exited with ${child.exitCode}`)
        const up = await fetch(`${origin}/`).then(() => true, () => false)
        if (up) break
        await new Promise((wait) => setTimeout(wait, 100))
      }
    }, 60_000)

    afterAll(() => {
      child?.kill()
    })

    /** Signs in through the credentials callback; the cookies it ends with. */
    async function signIn(username: string, password: string): Promise<{ status: number; location: string | null; cookie: string }> {
      const csrf = await fetch(`${origin}/auth/csrf`)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const jar = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
      const answer = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar },
        body: new URLSearchParams({ csrfToken, username, password, callbackUrl: `${origin}/dashboard` }),
      })
      const cookie = [jar, ...answer.headers.getSetCookie().map((line) => line.split(";")[0])].join("; ")
      return { status: answer.status, location: answer.headers.get("location"), cookie }
    }

    test("the dashboard needs a session: JSON 401, and the home page offers the sign-in page", async () => {
      const refused = await fetch(`${origin}/dashboard`)
      expect(refused.status).toBe(401)
      expect(await (await fetch(`${origin}/`)).text()).toContain('href="/auth/signin"')
    })

    test("demo / demo signs in, and the dashboard greets the user", async () => {
      const { status, location, cookie } = await signIn("demo", "demo")
      expect(status).toBe(302)
      expect(location).toBe(`${origin}/dashboard`)
      const dashboard = await fetch(`${origin}/dashboard`, { headers: { cookie } })
      expect(dashboard.status).toBe(200)
      expect(await dashboard.text()).toBe("Hello Demo")
    })

    test("a wrong password and an unknown user stay signed out", async () => {
      for (const [username, password] of [["demo", "wrong"], ["nobody", "demo"]] as const) {
        const { location, cookie } = await signIn(username, password)
        expect(location).toContain("error=CredentialsSignin")
        expect((await fetch(`${origin}/dashboard`, { headers: { cookie } })).status).toBe(401)
      }
    })
  })
})
