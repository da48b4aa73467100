package i18n

import (
	"strings"
	"sync"
)

// iso639_1 are the two-letter language codes (ISO 639-1), the first
// subtag of nearly every locale a project names its files after.
var iso639_1 = setOf("aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu")

// iso639_3 are the three-letter codes of languages that projects ship
// translations for but that have no two-letter code. A longer list would
// mistake more ordinary words for languages ("app", "web").
var iso639_3 = setOf("ace ach ady ain ale ang arn arq ary arz ast awa bal ban bar bem bho bik bin bpy bug byn ceb cgg chr ckb cop crh csb dsb dyu fil fur gag gez gil gom gsw guc gur haw hil hsb ibb ilo inh jbo kab kbd kea kha kmr kok ksh lad lfn lij lmo lzh mai mhr min mni moh mus mwl mzn nah nan nap nds new nqo nso oss pam pap pcm pms pnt prg quc rom rup sah sat scn sco shn sma smj smn sms srn szl tet tig tlh tok tpi tzm udm vec wae war wuu yue zgh zza")

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isLocale reports whether s names a locale as projects name their locale
// files and folders: a BCP 47 tag or a POSIX locale ("en", "pt-BR",
// "zh_Hant_TW", "es-419", "sr@latin", "en_US.UTF-8" is not one).
func isLocale(s string) bool {
	if s == "" || len(s) > 24 {
		return false
	}
	if i := strings.IndexByte(s, '@'); i > 0 { // gettext modifier: sr@latin
		mod := s[i+1:]
		if mod == "" || !isAlnum(mod) {
			return false
		}
		s = s[:i]
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 || strings.Count(s, "-")+strings.Count(s, "_") != len(parts)-1 {
		return false
	}
	lang := parts[0]
	if lang != strings.ToLower(lang) {
		return false
	}
	switch len(lang) {
	case 2:
		if !iso639_1[lang] {
			return false
		}
	case 3:
		if !iso639_3[lang] {
			return false
		}
	default:
		return false
	}
	for i, p := range parts[1:] {
		switch {
		case len(p) == 4 && isAlpha(p) && i == 0: // script: Hant, Latn
		case len(p) == 2 && isAlpha(p): // region: BR, br
		case len(p) == 3 && isDigits(p): // region: 419
		case len(p) >= 5 && len(p) <= 8 && isAlnum(p): // variant: valencia
		default:
			return false
		}
	}
	return true
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9') && !isAlpha(s[i:i+1]) {
			return false
		}
	}
	return true
}

// compatibleLocales reports whether a file named for locale a may
// declare b: the same language, and no two different regions ("zh" and
// "zh_TW", "sr-latn" and "sr@latin" agree; "pt-BR" and "pt_PT" do not).
func compatibleLocales(a, b string) bool {
	if language(a) != language(b) {
		return false
	}
	ra, rb := region(a), region(b)
	return ra == "" || rb == "" || ra == rb
}

// region is the region subtag of a locale, upper case; "" for none.
func region(loc string) string {
	if i := strings.IndexAny(loc, "@."); i >= 0 {
		loc = loc[:i]
	}
	parts := strings.FieldsFunc(loc, func(r rune) bool { return r == '-' || r == '_' })
	for _, p := range parts[min(1, len(parts)):] {
		if len(p) == 2 && isAlpha(p) || len(p) == 3 && isDigits(p) {
			return strings.ToUpper(p)
		}
	}
	return ""
}

// language is the language subtag of a locale, lower case: "pt" of "pt_BR".
func language(loc string) string {
	loc = strings.ToLower(loc)
	if i := strings.IndexAny(loc, "-_@."); i >= 0 {
		return loc[:i]
	}
	return loc
}

// sameLocale reports whether a and b name the same locale, whatever their
// separator and case ("pt_BR", "pt-br").
func sameLocale(a, b string) bool {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	return norm(a) == norm(b)
}

// pluralCats are the CLDR cardinal plural categories that whole numbers
// select in each language, by language subtag. A message that counts
// things needs a form for each, or some counts read wrong ("1 файлов"). The
// categories only fractions select (Russian "other", Czech "many") and
// those only numbers from a million up select (French, Spanish, Italian,
// Portuguese "many") are left out: translators rarely write them, and
// `other` stands in. Derived from CLDR's plural rules (TestPluralTable
// checks them against golang.org/x/text's copy), with Hebrew as CLDR 42
// has it (one, two, other). A language not listed needs only `other`.
var pluralCats = sync.OnceValue(func() map[string][]string {
	return func() map[string][]string {
		groups := map[string]string{
			"one few many":                "be pl ru uk",
			"one few many other":          "mt",
			"one few other":               "bs cs hr lt mo ro shi sk sr sh",
			"one two few many other":      "ga",
			"one two few other":           "br dsb gd gv hsb sl",
			"one two other":               "he iw iu kw naq se sma smj smn sms",
			"zero one two few many other": "ar cy",
			"zero one other":              "ksh lag lv prg",
			"one other": "af ak am as ast az bem bez bg bh bn brx ca ce cgg chr ckb da de dv ee el en eo es et eu fa ff fi fil fo fr fur fy gl gsw gu " +
				"ha haw hi hu hy io is it ji jgo jmc ka kab kk kkj kl kn ks ksb ku ky lb lg ln mas mg mgo mk ml mn mr nah nb nd ne nl nn nnh no nr nso ny nyn om or os oss " +
				"pa pap ps pt rm rof rwk saq sd seh si sn so sq ss st sv sw ta te teo ti tig tk tl tn tr ts tzm ug ur uz ve vo vun wa wae xh xog yi zu",
		}
		m := map[string][]string{}
		for cats, langs := range groups {
			for _, l := range strings.Fields(langs) {
				m[l] = strings.Fields(cats)
			}
		}
		return m
	}()
})

// pluralCategories are CLDR's plural category keywords.
var pluralCategories = []string{"zero", "one", "two", "few", "many", "other"}

func isPluralCategory(s string) bool {
	for _, c := range pluralCategories {
		if s == c {
			return true
		}
	}
	return false
}

// neededCategories are the plural categories a locale's whole numbers
// select (Russian needs no "other" for them; ICU still requires it).
func neededCategories(loc string) []string {
	cats, ok := pluralCats()[language(loc)]
	if !ok {
		return []string{"other"}
	}
	return cats
}
