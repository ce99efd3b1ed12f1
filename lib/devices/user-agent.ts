/**
 * The browser and the system a user agent names, for people to recognise a device or a passkey
 * ("Firefox", "Linux"): a few well-known marks, in the order that tells them apart (Edge's user
 * agent also says Chrome and Safari; Opera's and Samsung Internet's say Chrome; Chrome's also says
 * Safari; Chrome and Firefox on iOS say Safari). Anything else is unknown.
 */
const BROWSERS = [
  ["Edg/", "Edge"],
  ["EdgiOS/", "Edge"],
  ["EdgA/", "Edge"],
  ["OPR/", "Opera"],
  ["SamsungBrowser/", "Samsung Internet"],
  ["Firefox/", "Firefox"],
  ["FxiOS/", "Firefox"],
  ["CriOS/", "Chrome"],
  ["Chrome/", "Chrome"],
  ["Chromium/", "Chromium"],
  ["Safari/", "Safari"],
] as const
const SYSTEMS = [
  ["Android", "Android"],
  ["iPhone", "iOS"],
  ["iPad", "iPadOS"],
  ["CrOS", "ChromeOS"],
  ["Windows", "Windows"],
  ["Mac OS X", "macOS"],
  ["Macintosh", "macOS"],
  ["Linux", "Linux"],
] as const

export interface UserAgentParts {
  browser?: string
  system?: string
}

export function userAgentParts(userAgent: string | null | undefined): UserAgentParts {
  if (!userAgent) return {}
  return {
    browser: BROWSERS.find(([mark]) => userAgent.includes(mark))?.[1],
    system: SYSTEMS.find(([mark]) => userAgent.includes(mark))?.[1],
  }
}
