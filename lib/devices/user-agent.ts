/**
 * The browser and the system a user agent names, for people to recognise a device or a passkey
 * ("Firefox", "Linux"): a few well-known marks, in the order that tells them apart (Edge's user
 * agent also says Chrome and Safari; Chrome's also says Safari). Anything else is unknown.
 */
const BROWSERS = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]] as const
const SYSTEMS = [["Android", "Android"], ["iPhone", "iOS"], ["iPad", "iPadOS"], ["Windows", "Windows"], ["Mac OS X", "macOS"], ["Linux", "Linux"]] as const

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
