/** Bot protection's Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "signin.error.BotChallengeFailed": "ロボットではないことを確認してから、もう一度お試しください。",
  "signin.error.BotCheckUnavailable": "現在、ロボットではないことを確認できませんでした。1 分ほどしてからもう一度お試しください。",
  "error.BotChallengeFailed.heading": "確認に失敗しました",
  "error.BotChallengeFailed.message": "このリクエストはロボットではないことの確認を通過しませんでした。前のページに戻り、確認を済ませてからもう一度お試しください。",
  "error.BotCheckUnavailable.heading": "確認を利用できません",
  "error.BotCheckUnavailable.message": "現在、ロボットではないことの確認を実行できませんでした。1 分ほどしてからもう一度お試しください。",

  "bot.widget.label": "私はロボットではありません",
  "bot.widget.verifying": "確認しています…",
  "bot.widget.verified": "確認済み：ロボットではありません",
  "bot.widget.waiting": "確認しています…しばらくお待ちください。",
  "bot.widget.required": "ロボットではないことを示すため、チェックボックスをオンにしてください。",
  "bot.widget.failed": "確認できませんでした。1 分ほどしてからもう一度お試しください。",
  "bot.widget.expired": "確認の有効期限が切れました。もう一度チェックボックスをオンにしてください。",
  "bot.noscript.message": "このフォームは JavaScript を使ってロボットではないことを確認しますが、このブラウザーでは JavaScript がオフになっています。オンにしてからページを再読み込みしてください。",
  "bot.noscript.link": "JavaScript をオンにできない場合は、別の方法で続行してください。",
  "bot.noscript.contact": "JavaScript をオンにできない場合は、このサイトのサポート窓口にお問い合わせください。",
}
