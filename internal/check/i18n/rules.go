package i18n

import "github.com/cairn-dev/cairn/internal/check"

const (
	ruleSyntax      = "i18n/syntax"
	ruleDuplicate   = "i18n/duplicate-key"
	ruleMissingKey  = "i18n/missing-key"
	ruleExtraKey    = "i18n/extra-key"
	ruleMissingFile = "i18n/missing-file"
	ruleShape       = "i18n/shape-mismatch"
	rulePlaceholder = "i18n/placeholder-mismatch"
	ruleUndeclared  = "i18n/undeclared-placeholder"
	ruleICU         = "i18n/icu-syntax"
	rulePluralOther = "i18n/plural-other"
	rulePluralCat   = "i18n/plural-category"
	rulePluralForms = "i18n/plural-forms"
	ruleEmpty       = "i18n/empty-value"
	ruleFuzzy       = "i18n/fuzzy"
	ruleLocale      = "i18n/locale-mismatch"
	ruleReference   = "i18n/unknown-reference"
)

var rules = []check.Rule{
	{ID: ruleSyntax, Severity: check.Error, Title: "Locale file does not parse",
		Why: "A JSON, YAML, ARB or PO file with a syntax error is not loaded at all: every message of that locale falls back or shows its key.",
		Fix: "Fix the syntax at the position given.",
		Bad: `{"title": "Welcome",}`, Good: `{"title": "Welcome"}`},
	{ID: ruleDuplicate, Severity: check.Error, Title: "Key defined twice",
		Why: "JSON.parse and most YAML loaders keep the last of two equal keys without a word, so the first translation is silently lost; msgfmt refuses a catalog with a duplicate msgid.",
		Fix: "Remove one of the two definitions, keeping the translation you want.",
		Bad: `{"save": "Save", "save": "Store"}`, Good: `{"save": "Save"}`,
		Link: "https://www.rfc-editor.org/rfc/rfc8259#section-4"},
	{ID: ruleMissingKey, Severity: check.Warning, Title: "Key missing from a locale",
		Why:  "A key the base locale has and this locale lacks shows the fallback language (or the raw key) to this locale's users.",
		Fix:  "Add the translation, or run the extraction/merge step of your tool (i18next-parser, msgmerge, flutter gen-l10n).",
		Bad:  "en.json: {\"save\": \"Save\", \"cancel\": \"Cancel\"}\nfr.json: {\"save\": \"Enregistrer\"}",
		Good: "fr.json: {\"save\": \"Enregistrer\", \"cancel\": \"Annuler\"}"},
	{ID: ruleExtraKey, Severity: check.Warning, Title: "Key the base locale does not have",
		Why: "A key only a translation has is dead (the base removed or renamed it) or misspelled, so the message it was meant for is still untranslated.",
		Fix: "Rename it to the base locale's key, or delete it.",
		Bad: "en.json: {\"cancel\": \"Cancel\"}\nfr.json: {\"cancle\": \"Annuler\"}", Good: "fr.json: {\"cancel\": \"Annuler\"}"},
	{ID: ruleMissingFile, Severity: check.Warning, Title: "Namespace file missing from a locale",
		Why: "A locale that has some of the base locale's namespace files but not this one shows the fallback language for the whole namespace.",
		Fix: "Add the file with this locale's translations (a copy of the base file to translate).",
		Bad: "locales/en/common.json, locales/en/home.json, locales/fr/home.json", Good: "locales/fr/common.json added"},
	{ID: ruleShape, Severity: check.Error, Title: "Message where the base has a group, or the reverse",
		Why: "When the base locale has a group of keys where a translation has a single message (or a list where it has a string), the lookup returns an object, a list or nothing, not the text.",
		Fix: "Give the key the same shape as in the base locale.",
		Bad: "en.json: {\"menu\": {\"open\": \"Open\"}}\nfr.json: {\"menu\": \"Ouvrir\"}", Good: "fr.json: {\"menu\": {\"open\": \"Ouvrir\"}}"},
	{ID: rulePlaceholder, Severity: check.Error, Title: "Placeholders differ from the base message",
		Why: "A translation that adds or misspells a placeholder prints it raw or fails (printf with the wrong directives can crash): an error. One that drops a placeholder loses the value (a name, a count) but renders: a warning, since a translation may spell out what the key already says. In gettext catalogs with a format flag, both are errors, as msgfmt --check-format makes them.",
		Fix: "Use exactly the base message's placeholders ({name}, {{name}}, %s, %{name}, %(name)s), translated around them.",
		Bad: "en: \"Hello, {name}!\"\nfr: \"Bonjour, {nom} !\"", Good: "fr: \"Bonjour, {name} !\"",
		Link: "https://www.gnu.org/software/gettext/manual/html_node/msgfmt-Invocation.html"},
	{ID: ruleUndeclared, Severity: check.Error, Title: "Placeholder used but not declared",
		Why:  "Chrome's messages.json and Flutter's ARB declare each named placeholder beside the message; one that is used but not declared is printed raw (Chrome) or refused by gen-l10n.",
		Fix:  "Declare it under the message's placeholders, or correct its name.",
		Bad:  `"greet": {"message": "Hi $USER$", "placeholders": {"name": {"content": "$1"}}}`,
		Good: `"greet": {"message": "Hi $NAME$", "placeholders": {"name": {"content": "$1"}}}`,
		Link: "https://developer.chrome.com/docs/extensions/reference/api/i18n"},
	{ID: ruleICU, Severity: check.Error, Title: "ICU message does not parse",
		Why: "An ICU MessageFormat message with an unclosed brace or a malformed argument throws when formatted (formatjs, ICU) or breaks code generation (Flutter).",
		Fix: "Close the braces; quote literal braces as '{' and '}'.",
		Bad: `"{count, plural, one {# file} other {# files}"`, Good: `"{count, plural, one {# file} other {# files}}"`,
		Link: "https://unicode-org.github.io/icu/userguide/format_parse/messages/"},
	{ID: rulePluralOther, Severity: check.Error, Title: "Plural or select without other",
		Why: "ICU requires an other branch in every plural, selectordinal and select argument: without it the message fails to format for any value that falls through.",
		Fix: "Add an other {…} branch.",
		Bad: `"{n, plural, one {# item}}"`, Good: `"{n, plural, one {# item} other {# items}}"`,
		Link: "https://unicode-org.github.io/icu/userguide/format_parse/messages/#complex-argument-types"},
	{ID: rulePluralCat, Severity: check.Warning, Title: "Plural category the language needs is missing",
		Why: "Each language selects its own plural categories (CLDR): Russian and Polish need one, few and many, Arabic six, Japanese only other. A missing one falls back to other, and some counts read wrong (\"2 файлов\"); a category the CLDR does not define is never selected.",
		Fix: "Add the missing categories for this locale's language (and remove any that are not CLDR categories).",
		Bad: `ru: "{n, plural, one {# файл} other {# файлов}}"`, Good: `ru: "{n, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}"`,
		Link: "https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html"},
	{ID: rulePluralForms, Severity: check.Error, Title: "Plural forms disagree with the catalog's Plural-Forms",
		Why: "gettext picks msgstr[n] by the header's plural formula; an entry with a different number of forms than nplurals shows an empty or wrong form for some counts.",
		Fix: "Give every plural entry exactly nplurals msgstr[n] forms, and declare Plural-Forms in the header.",
		Bad: "\"Plural-Forms: nplurals=3; ...\"\nmsgstr[0] \"файл\"\nmsgstr[1] \"файла\"", Good: "msgstr[0] \"файл\"\nmsgstr[1] \"файла\"\nmsgstr[2] \"файлов\"",
		Link: "https://www.gnu.org/software/gettext/manual/html_node/Plural-forms.html"},
	{ID: ruleEmpty, Severity: check.Warning, Title: "Empty translation",
		Why: "An empty string is a translation: most libraries show it as a blank instead of falling back (gettext treats an empty msgstr as untranslated and shows the source text).",
		Fix: "Translate the message, or delete the key so that the fallback applies.",
		Bad: `{"save": ""}`, Good: `{"save": "Enregistrer"}`},
	{ID: ruleFuzzy, Severity: check.Info, Title: "Fuzzy translation",
		Why: "msgfmt leaves fuzzy entries out of the compiled catalog: users see the source text until a translator reviews them.",
		Fix: "Review the translation and remove the fuzzy flag.",
		Bad: "#, fuzzy\nmsgid \"Open\"\nmsgstr \"Ouvert\"", Good: "msgid \"Open\"\nmsgstr \"Ouvrir\"",
		Link: "https://www.gnu.org/software/gettext/manual/html_node/Fuzzy-Entries.html"},
	{ID: ruleLocale, Severity: check.Warning, Title: "File says another locale than its name",
		Why: "A file named for one locale that declares another (ARB @@locale, PO Language, a Rails file's top key) is loaded for the wrong language, or not at all.",
		Fix: "Make the declaration and the file name agree.",
		Bad: "config/locales/fr.yml:\nen:\n  save: Enregistrer", Good: "config/locales/fr.yml:\nfr:\n  save: Enregistrer"},
	{ID: ruleReference, Severity: check.Error, Title: "Nested reference to a key that does not exist",
		Why: "i18next's $t(key) nests another message; a key that exists in no locale is printed raw.",
		Fix: "Point it at an existing key, or add the key.",
		Bad: `{"welcome": "$t(greting), friend"}`, Good: `{"welcome": "$t(greeting), friend"}`,
		Link: "https://www.i18next.com/translation-function/nesting"},
}
