/**
 * The shapes of a set of texts. Types only: each capability's texts use them, and the catalogs
 * read those texts, so they import nothing back (no import cycle).
 */

/** Texts in another language for a set of English texts: exactly its keys. */
export type TextsOf<English> = { readonly [Key in keyof English]: string }

/** A capability's texts in every built-in language; the English names the keys. */
export type Texts<English> = {
  readonly en: English
  readonly de: TextsOf<English>
  readonly fr: TextsOf<English>
  readonly es: TextsOf<English>
  readonly ja: TextsOf<English>
}

/** Any set of texts: by language tag, then by key. */
export type TextsByLanguage = Readonly<Record<string, Readonly<Record<string, string>>>>

/**
 * Every capability's keys, which join `MessageKey` (./en.ts): each capability declares its own
 * from its folder, beside the capability object that brings its texts (declaration merging, so
 * the published types have them too):
 * `declare module "../i18n/text-types.js" { interface CapabilityMessages extends TextsOf<typeof en> {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityMessages {}
