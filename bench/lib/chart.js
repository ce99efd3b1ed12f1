// Issue #36: the active-sessions results as an SVG line chart, written by hand (no dependency):
// x is N on a log scale, y the ratio of server CPU per request against bare Express, one line per
// scenario, a legend, and the targets as dashed lines.

const COLORS = ["#1b6ac9", "#0a9d6e", "#7b3fc4", "#d4860b", "#c0392b", "#555555", "#d63384", "#2c8c99", "#8a6d3b"]
const DASHES = { gatehouse: "", "better-auth": "7 4", authjs: "2 3" }
const TARGETS = [
  [0.75, "cookie session target at N = 10 000 (0.75)"],
  [0.7, "cookie session target at N = 100 000 (0.70)"],
  [0.55, "PostgreSQL session target at N = 10 000 (0.55)"],
]

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

export function activeSessionsChart({ machine, settings, summary }) {
  const width = 860
  const plot = { left: 64, top: 48, width: 480, height: 340 }
  const height = plot.top + plot.height + 70
  const sizes = [...settings.sizes].sort((a, b) => a - b)
  const [low, high] = [Math.log10(sizes[0]), Math.log10(sizes.at(-1))]
  const x = (n) => plot.left + (high === low ? plot.width / 2 : ((Math.log10(n) - low) / (high - low)) * plot.width)
  const ratios = summary.filter((row) => row.id !== "bare").map((row) => row.ratio).filter(Number.isFinite)
  const top = Math.max(1, Math.ceil(Math.max(0, ...ratios) * 10) / 10)
  const y = (ratio) => plot.top + plot.height - (ratio / top) * plot.height
  const out = []
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`)
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`)
  out.push(`<text x="${plot.left}" y="20" font-size="15" font-weight="600">Session read cost against the number of active sessions</text>`)
  out.push(`<text x="${plot.left}" y="37" fill="#555">server CPU per request, bare Express ÷ scenario (higher is better); ${escape(machine.date.slice(0, 10))}, Node ${escape(machine.node)}, median of ${settings.rounds} round(s)</text>`)
  // Grid and axes.
  for (let tick = 0; tick <= top + 1e-9; tick += 0.1) {
    const at = y(tick)
    out.push(`<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${at}" y2="${at}" stroke="#e6e6e6"/>`)
    out.push(`<text x="${plot.left - 8}" y="${at + 4}" text-anchor="end" fill="#333">${tick.toFixed(1)}</text>`)
  }
  for (const n of sizes) {
    out.push(`<line x1="${x(n)}" x2="${x(n)}" y1="${plot.top}" y2="${plot.top + plot.height}" stroke="#e6e6e6"/>`)
    out.push(`<text x="${x(n)}" y="${plot.top + plot.height + 18}" text-anchor="middle" fill="#333">${n.toLocaleString("en-US")}</text>`)
  }
  out.push(`<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`)
  out.push(`<line x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${y(0)}" stroke="#333"/>`)
  out.push(`<text x="${plot.left + plot.width / 2}" y="${plot.top + plot.height + 40}" text-anchor="middle">active sessions N (log scale), each request another session's cookie</text>`)
  out.push(`<text transform="translate(18 ${plot.top + plot.height / 2}) rotate(-90)" text-anchor="middle">× bare Express (server CPU)</text>`)
  // Targets.
  for (const [value, label] of TARGETS) {
    if (value > top) continue
    out.push(`<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${y(value)}" y2="${y(value)}" stroke="#999" stroke-dasharray="4 4"><title>${escape(label)}</title></line>`)
    out.push(`<text x="${plot.left + plot.width - 4}" y="${y(value) - 4}" text-anchor="end" fill="#777" font-size="10">${escape(label)}</text>`)
  }
  // One line per scenario.
  const ids = [...new Set(summary.map((row) => row.id))].filter((id) => id !== "bare")
  const legend = { x: plot.left + plot.width + 24, y: plot.top + 4 }
  ids.forEach((id, index) => {
    const rows = summary.filter((row) => row.id === id && Number.isFinite(row.ratio)).sort((a, b) => a.n - b.n)
    const color = COLORS[index % COLORS.length]
    const library = summary.find((row) => row.id === id)?.library
    const dash = DASHES[library] ?? ""
    if (rows.length) {
      const points = rows.map((row) => `${x(row.n).toFixed(1)},${y(row.ratio).toFixed(1)}`).join(" ")
      out.push(`<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`)
      for (const row of rows) out.push(`<circle cx="${x(row.n).toFixed(1)}" cy="${y(row.ratio).toFixed(1)}" r="3" fill="${color}"><title>${escape(`${row.name}, N = ${row.n}: ${row.ratio.toFixed(2)}`)}</title></circle>`)
    }
    const at = legend.y + index * 34
    out.push(`<line x1="${legend.x}" x2="${legend.x + 24}" y1="${at}" y2="${at}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`)
    const name = summary.find((row) => row.id === id)?.name ?? id
    const [first, second] = wrap(name, 34)
    out.push(`<text x="${legend.x + 30}" y="${at + 4}">${escape(first)}</text>`)
    if (second) out.push(`<text x="${legend.x + 30}" y="${at + 18}">${escape(second)}</text>`)
  })
  out.push("</svg>")
  return `${out.join("\n")}\n`
}

/** Splits `text` into at most two lines of about `width` characters, at a space. */
function wrap(text, width) {
  if (text.length <= width) return [text]
  const cut = text.lastIndexOf(" ", width)
  return cut > 0 ? [text.slice(0, cut), text.slice(cut + 1)] : [text]
}
