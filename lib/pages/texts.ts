/**
 * A catalog as the templates read it: every text by key, plus `signin.with` split around its
 * `{provider}` placeholder (the template outputs the two halves and the escaped provider name), so
 * templates need no formatting logic. Built once per catalog.
 */
import { CORE_ENGLISH as en } from "../i18n/catalogs.js"
import type { Messages } from "../i18n/en.js"

export type PageTexts = Messages & { readonly "signin.with.before": string; readonly "signin.with.after": string }

const cache = new WeakMap<Messages, PageTexts>()

/** `text` split at the first `{name}`; without one, the whole text comes first. */
export function splitAt(text: string, name: string): [before: string, after: string, found: boolean] {
  const at = text.indexOf(`{${name}}`)
  return at < 0 ? [text, "", false] : [text.slice(0, at), text.slice(at + name.length + 2), true]
}

/** `t` defaults to the core's English texts (without the capabilities'). */
export function pageTexts(t: Messages = en as Messages): PageTexts {
  let texts = cache.get(t)
  if (!texts) {
    const [before, after, found] = splitAt(t["signin.with"], "provider")
    // A text without the placeholder still names the provider, after it.
    texts = Object.freeze({ ...t, "signin.with.before": found ? before : `${before} `, "signin.with.after": after })
    cache.set(t, texts)
  }
  return texts
}
