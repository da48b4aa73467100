package i18n

import (
	"path"
	"strings"
	"sync"
)

// Where locale files are, by the conventions of the tools that load them.
// Each file is placed in a set (its sibling translations) by a pattern
// with one "*" where the locale goes:
//
//	locales/en.json, locales/fr.json          locales/*.json
//	locales/en/common.json                    locales/*/common.json
//	config/locales/devise.en.yml              config/locales/devise.*.yml
//	lib/l10n/app_en.arb                       lib/l10n/app_*.arb
//	_locales/en/messages.json                 _locales/*/messages.json
//	po/fr.po (po/app.pot the template)        po/*.po
//	locale/fr/LC_MESSAGES/app.po              locale/*/LC_MESSAGES/app.po
//	package.nls.json, package.nls.de.json     package.nls.*.json (the file without a locale is the default)

// localeDirs are folder names that hold locale files.
var localeDirs = sync.OnceValue(func() map[string]bool {
	return setOf("locales locale i18n l10n lang langs language languages translations translation messages intl nls _locales lc_messages po texts strings")
})

// placement is where a file sits in its set.
type placement struct {
	pattern string // the set's pattern: the path with "*" for the locale
	locale  string // "" for a template or default file
	format  format
	dirWise bool // the "*" is a folder ("locales/*/common.json")
}

// match returns the locale p has in pattern pl, if p belongs to the set.
func (pl placement) match(p string) (string, bool) {
	star := strings.IndexByte(pl.pattern, '*')
	pre, suf := pl.pattern[:star], pl.pattern[star+1:]
	if !strings.HasPrefix(p, pre) || !strings.HasSuffix(p, suf) || len(p) < len(pre)+len(suf) {
		return "", false
	}
	loc := p[len(pre) : len(p)-len(suf)]
	if pl.format == fmtNLS && loc == "" {
		return "", false
	}
	if strings.Contains(loc, "/") || !isLocale(loc) {
		return "", false
	}
	return loc, true
}

func extFormat(p string) (format, bool) {
	switch strings.ToLower(path.Ext(p)) {
	case ".json", ".json5":
		return fmtJSON, true
	case ".yaml", ".yml":
		return fmtYAML, true
	case ".po":
		return fmtPO, true
	case ".pot":
		return fmtPOT, true
	case ".arb":
		return fmtARB, true
	}
	return 0, false
}

// place finds p's set. ok is false for a file that is no locale file.
func place(p string) (placement, bool) {
	f, ok := extFormat(p)
	if !ok {
		return placement{}, false
	}
	dir, base := path.Split(p)
	ext := path.Ext(base)
	name := strings.TrimSuffix(base, ext)
	switch {
	case f == fmtJSON && base == "messages.json" && strings.Contains("/"+dir, "/_locales/"):
		parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
		if n := len(parts); n >= 2 && parts[n-2] == "_locales" && isLocale(parts[n-1]) {
			return placement{strings.Join(parts[:n-1], "/") + "/*/messages.json", parts[n-1], fmtChrome, true}, true
		}
	case f == fmtJSON && (name == "package.nls" || strings.HasPrefix(name, "package.nls.")):
		loc := strings.TrimPrefix(strings.TrimPrefix(name, "package.nls"), ".")
		if loc == "" || isLocale(loc) {
			return placement{dir + "package.nls*.json", loc, fmtNLS, false}, true
		}
		return placement{}, false
	case f == fmtPOT:
		// A template is the base of the catalogs beside it.
		return placement{dir + "*.po", "", fmtPOT, false}, true
	}
	// The file name: "fr", "devise.fr", "app_fr", "messages-fr".
	if isLocale(name) {
		return placement{dir + "*" + ext, name, f, false}, true
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c == '.' || c == '_' || c == '-') && i > 0 && isLocale(name[i+1:]) {
			return placement{dir + name[:i+1] + "*" + ext, name[i+1:], f, false}, true
		}
	}
	// A folder: "locales/fr/common.json", "locale/fr/LC_MESSAGES/app.po".
	parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if isLocale(parts[i]) {
			pre := strings.Join(parts[:i], "/")
			if pre != "" {
				pre += "/"
			}
			return placement{pre + "*/" + strings.Join(parts[i+1:], "/") + suffixSlash(parts[i+1:]) + base, parts[i], f, true}, true
		}
	}
	if f == fmtPO {
		// A catalog named for its domain: its locale is in its header.
		return placement{p, "", f, false}, true
	}
	return placement{}, false
}

func suffixSlash(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return "/"
}

// wants reports whether p (with first bytes head) is a locale file a walk
// should check.
func wants(p string, head []byte) bool {
	pl, ok := place(p)
	if !ok {
		return false
	}
	switch pl.format {
	case fmtPO, fmtPOT, fmtARB, fmtChrome, fmtNLS:
		return true
	}
	base := path.Base(p)
	if base == "package.json" || strings.HasSuffix(base, ".tokens.json") || strings.HasPrefix(base, "tsconfig") {
		return false
	}
	// JSON or YAML: only inside a folder of locale files, or a Rails
	// config/locales, and only when it starts like a mapping.
	inLocaleDir := false
	for _, part := range strings.Split(path.Dir(p), "/") {
		if localeDirs()[strings.ToLower(part)] {
			inLocaleDir = true
			break
		}
	}
	if !inLocaleDir {
		return false
	}
	h := strings.TrimLeft(string(head), "\ufeff \t\r\n")
	if pl.format == fmtJSON {
		return strings.HasPrefix(h, "{") || (strings.HasSuffix(p, ".json5") && (strings.HasPrefix(h, "//") || strings.HasPrefix(h, "/*")))
	}
	return !strings.HasPrefix(h, "[") && !strings.HasPrefix(h, "- ")
}
