package secrets

import (
	"math"
	"strings"
)

// An assignment is a value given to a name that says it is secret:
// API_KEY=…, "clientSecret": "…", password: …, token := "…".
type assignment struct {
	name       string
	start, end int // the value's span in the text
	// strong says the name is a key or secret, or an environment variable
	// (ALL_CAPS): a UUID assigned to it is a credential, where a UUID
	// assigned to some token is an id.
	strong   bool
	quoted   bool // the value was in quotes
	password bool // the name says password rather than key or token
}

// secretWords are the words of a name (split at _, -, ., and case changes)
// that say its value is a secret.
var secretWords = map[string]bool{
	"key": true, "apikey": true, "secret": true, "token": true, "password": true, "passwd": true,
	"pwd": true, "pass": true, "passphrase": true, "credential": true, "credentials": true, "creds": true,
	"auth": true, "secretkey": true, "accesskey": true, "privatekey": true, "clientsecret": true, "accesstoken": true,
	"authtoken": true, "apitoken": true, "signingkey": true, "encryptionkey": true, "masterkey": true,
}

// passwordWords are the secret words that name a password: people choose
// those, so the value's entropy says less.
var passwordWords = map[string]bool{"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true}

// notSecretTail are last words that make the name about the secret rather
// than the secret: token_url, key_path, api_key_header, password_length.
var notSecretTail = map[string]bool{
	"name": true, "names": true, "id": true, "ids": true, "type": true, "types": true, "file": true, "files": true, "path": true, "dir": true,
	"url": true, "uri": true, "endpoint": true, "length": true, "len": true, "size": true, "count": true, "prefix": true,
	"suffix": true, "header": true, "field": true, "env": true, "var": true, "format": true, "pattern": true,
	"regex": true, "kind": true, "mode": true, "expiry": true, "expires": true, "ttl": true, "timeout": true,
	"hash": true, "digest": true, "fingerprint": true, "version": true, "algorithm": true, "alg": true, "label": true,
	"placeholder": true, "hint": true, "message": true, "msg": true, "error": true, "policy": true, "location": true,
	"store": true, "provider": true, "source": true, "ref": true, "reference": true, "index": true, "idx": true, "column": true,
	"col": true, "param": true, "parameter": true, "option": true, "flag": true, "class": true, "style": true, "event": true,
	"min": true, "max": true, "rule": true, "rules": true, "schema": true, "template": true, "input": true, "map": true,
	"code": true, "keys": true, "value": false, "usage": true, "help": true, "description": true, "doc": true,
	"reset": true, "changed": true, "required": true, "enabled": true, "confirm": true, "confirmation": true,
	"used": true, "last": true, "date": true, "time": true, "at": true, "updated": true, "created": true, "age": true,
	"prompt": true, "encryption": true, "method": true, "strength": true, "hashing": true, "hasher": true, "cipher": true,
	"manager": true, "service": true, "handler": true, "callback": true, "fn": true, "func": true, "function": true, "client": true, "text": true, "title": true, "selector": true, "attr": true, "attribute": true, "prop": true,
}

// notCredential are words that make a "token" or "key" in the name
// something other than a credential: a pagination cursor (nextToken,
// NextContinuationToken), an idempotency key (ClientRequestToken,
// ChangeToken), a public key, a lexer's token.
var notCredential = map[string]bool{
	"next": true, "continuation": true, "page": true, "paging": true, "pagination": true, "request": true,
	"change": true, "idempotency": true, "lifecycle": true, "term": true, "cursor": true, "marker": true,
	"sync": true, "resume": true, "cancel": true, "cancellation": true, "public": true, "pub": true, "primary": true,
	"foreign": true, "sort": true, "partition": true, "cache": true, "lookup": true, "dedup": true, "dedupe": true,
	"row": true, "item": true, "object": true, "map": true, "sequence": true, "lexer": true, "parser": true, "csrf": true,
	"xsrf": true, "nonce": true, "state": true, "etag": true, "version": true, "revision": true, "unique": true,
}

// nameWords splits an identifier into lower-case words at _, -, ., and
// lower-to-upper case changes (clientSecret → client, secret).
func nameWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			flush()
		case 'A' <= c && c <= 'Z':
			if i > 0 && 'a' <= name[i-1] && name[i-1] <= 'z' {
				flush()
			}
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
	flush()
	return words
}

// secretName reports whether name is one whose value is a secret, and
// whether it names a password.
func secretName(name string) (secret, password bool) {
	words := nameWords(name)
	if len(words) == 0 || len(words) > 8 {
		return false, false
	}
	last := words[len(words)-1]
	if notSecretTail[last] {
		return false, false
	}
	// "key" alone is a map's, a cache's, a protocol's (Sec-WebSocket-Key)
	// as often as a credential's: it needs a qualifier (api_key,
	// secretKey) or an environment variable's capitals (KEY=).
	if len(words) == 1 && words[0] == "key" && strings.ToUpper(name) != name {
		return false, false
	}
	for _, w := range words {
		if notCredential[w] {
			return false, false
		}
	}
	for _, w := range words {
		if secretWords[w] {
			secret = true
			password = password || passwordWords[w]
		}
	}
	return secret, password
}

// strongName reports whether name is ALL_CAPS (an environment variable)
// or has a word saying key, secret or password, rather than only token.
func strongName(name string) bool {
	if strings.ToUpper(name) == name {
		return true
	}
	for _, w := range nameWords(name) {
		if secretWords[w] && w != "token" && w != "auth" {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return isWord(c) || c == '-' || c == '.'
}

// assignments finds the assignments to secret names in s: NAME = value,
// NAME: value, "name": "value", name := "value", name => 'value', on one
// line. It scans once: each '=' or ':' looks back for a name and forward
// for a value.
func assignments(s string) []assignment {
	var out []assignment
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' {
			continue
		}
		// The operator: = := => ?= : and the '=' of "==" is not one.
		opStart, opEnd := i, i+1
		if c == ':' && opEnd < len(s) && s[opEnd] == '=' {
			opEnd++
		} else if c == '=' {
			if opEnd < len(s) && (s[opEnd] == '=' || s[opEnd] == '~') {
				i++ // == and =~ compare
				continue
			}
			if opEnd < len(s) && s[opEnd] == '>' {
				opEnd++
			}
			if opStart > 0 && strings.IndexByte("!<>=+-*/%&|^?", s[opStart-1]) >= 0 {
				if s[opStart-1] != '?' { // ?= assigns in make; the rest compare or update
					continue
				}
				opStart--
			}
		} else if opEnd < len(s) && s[opEnd] == ':' { // :: is a scope
			i++
			continue
		}
		name, ok := nameBefore(s, opStart)
		if !ok {
			continue
		}
		secret, password := secretName(name)
		if !secret {
			i = opEnd - 1
			continue
		}
		vs, ve, quoted, ok := valueAfter(s, opEnd)
		i = opEnd - 1
		if !ok {
			if ve > i {
				// A bare run too long to be a value: every '=' in it would
				// read the same run.
				i = ve - 1
			}
			continue
		}
		out = append(out, assignment{name: name, start: vs, end: ve, quoted: quoted, password: password, strong: strongName(name)})
		i = max(i, ve-1)
	}
	return out
}

// nameBefore reads the name before the operator at op: spaces, an optional
// closing quote, the name (at most 80 bytes), an optional opening quote.
func nameBefore(s string, op int) (string, bool) {
	j := op
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		j--
	}
	end := j
	for j > 0 && end-j < 80 && isNameByte(s[j-1]) {
		j--
	}
	if j == end || end-j >= 80 {
		return "", false
	}
	return s[j:end], true
}

// valueAfter reads the value after the operator ending at op: spaces, then
// a quoted string on the line, or a bare run up to a space, ',' or ';'.
func valueAfter(s string, op int) (start, end int, quoted, ok bool) {
	j := op
	for j < len(s) && j-op < 8 && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) {
		return 0, 0, false, false
	}
	const maxValue = 512
	if q := s[j]; q == '"' || q == '\'' || q == '`' {
		k := j + 1
		for k < len(s) && k-j <= maxValue && s[k] != q && s[k] != '\n' {
			if s[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(s) || s[k] != q {
			return 0, 0, false, false
		}
		return j + 1, k, true, true
	}
	k := j
	for k < len(s) && !valueStop[s[k]] {
		k++
	}
	if k == j || k-j > maxValue {
		return 0, k, false, false
	}
	return j, k, false, true
}

// valueStop are the bytes that end a bare value.
var valueStop = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n,;)}]") {
		t[c] = true
	}
	return t
}()

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// tokenAlphabet says which alphabet a value is written in: "hex" (its
// letters and digits are all hex digits; separators - _ . may join groups),
// "base64" (with its url-safe and padding characters) or "" for neither
// (spaces, punctuation: prose or code, not a generated key).
func tokenAlphabet(v string) string {
	hex := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F', c == '-', c == '_', c == '.':
		case 'g' <= c && c <= 'z', 'G' <= c && c <= 'Z', c == '+', c == '/', c == '=', c == '~':
			hex = false
		default:
			return ""
		}
	}
	if hex {
		return "hex"
	}
	return "base64"
}
