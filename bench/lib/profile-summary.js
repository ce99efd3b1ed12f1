// Prints where a server's time went, from the .cpuprofile it wrote into `dir` since `before` (the
// names there before it started): the functions with the most self time, and the packages or
// folders they are in. Used by bench/profile.js and bench/profile-active.js.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export function printProfileSummary(dir, before) {
  const file = readdirSync(dir).find((name) => !before.has(name) && name.endsWith(".cpuprofile"))
  if (!file) throw new Error("the server wrote no profile")
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8"))
  const self = new Map()
  const byFile = new Map()
  const total = profile.samples.length
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const counts = new Map()
  for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1)
  for (const [nodeId, count] of counts) {
    const { callFrame } = nodes.get(nodeId)
    const where = callFrame.url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "") || "(native)"
    const key = `${callFrame.functionName || "(anonymous)"}  ${where}:${callFrame.lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + count)
    const area = where.includes("node_modules/") ? where.split("node_modules/")[1].split("/").slice(0, where.includes("node_modules/@") ? 2 : 1).join("/") : where.startsWith("node:") ? "node internals" : where.split("/").slice(0, 3).join("/")
    byFile.set(area, (byFile.get(area) ?? 0) + count)
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, count]) => `${((count / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
  console.log(`\nself time by function (${file}):\n${top(self, 30).join("\n")}\n\nby package or folder:\n${top(byFile, 20).join("\n")}`)
}
