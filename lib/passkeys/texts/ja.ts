/** Passkey set-up's Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "passkey.setup.heading": "パスキーを作成",
  "passkey.setup.emailConfirmed": "メールアドレスが確認されました。",
  "passkey.setup.message": "パスキーを作成すると、次回から指紋・顔認証・画面ロックでログインできます。",
  "passkey.setup.skip": "今はしない",
}
