package httpserver

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/app"
)

// MinTokenLen is the shortest bearer token accepted: long enough that
// guessing one over the network is hopeless.
const MinTokenLen = 16

// AllProjects in a token's project list allows every project.
const AllProjects = "*"

// Token is one bearer token and what it may do.
type Token struct {
	// Name identifies the token in logs and errors; the secret itself is
	// never logged.
	Name string
	// Secret is what clients send as "Authorization: Bearer SECRET".
	Secret string
	// Projects the token may use: project names, or "*" for all.
	Projects []string
	// ReadOnly tokens get a server without write tools.
	ReadOnly bool
	// Agent, if set, binds the token to one agent name: its requests act
	// as that agent (X-Cairn-Agent, which is otherwise unauthenticated, may
	// only repeat it).
	Agent string
}

// MinTokenBits is the least entropy a token's secret must show, estimated
// from its characters' frequencies: "aaaaaaaaaaaaaaaa" has none, 16 random
// hex digits about 56 bits.
const MinTokenBits = 40

// entropyBits estimates the entropy of s from the frequency of its
// characters (Shannon), in bits for the whole string.
func entropyBits(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h * float64(n)
}

func (t Token) allows(project string) bool {
	return slices.Contains(t.Projects, AllProjects) || slices.Contains(t.Projects, project)
}

// only returns the token's one project when it names exactly one.
func (t Token) only() (string, bool) {
	if len(t.Projects) == 1 && t.Projects[0] != AllProjects {
		return t.Projects[0], true
	}
	return "", false
}

func (t Token) validate() error {
	if len(t.Secret) < MinTokenLen {
		return fmt.Errorf("token %s: the secret has %d characters; use at least %d (for example: openssl rand -hex 32)", t.Name, len(t.Secret), MinTokenLen)
	}
	if strings.ContainsAny(t.Secret, " \t\r\n") {
		return fmt.Errorf("token %s: the secret contains white space; use letters, digits and punctuation only", t.Name)
	}
	if bits := entropyBits(t.Secret); bits < MinTokenBits {
		return fmt.Errorf("token %s: the secret is too easy to guess (about %.0f bits, under %d: repeated or few distinct characters); generate one, for example: openssl rand -hex 32", t.Name, bits, MinTokenBits)
	}
	if t.Agent != "" {
		if err := checkAgent(t.Agent); err != nil {
			return fmt.Errorf("token %s: agent %q: %w", t.Name, t.Agent, err)
		}
	}
	if len(t.Projects) == 0 {
		return fmt.Errorf("token %s: no projects; list project names or * for all", t.Name)
	}
	for _, p := range t.Projects {
		if p == AllProjects {
			continue
		}
		if err := app.CheckProjectName(p); err != nil {
			return fmt.Errorf("token %s: %w", t.Name, err)
		}
	}
	return nil
}

// ParseTokens parses tokens written as SECRET:PROJECTS:ACCESS, one per line or
// separated by ';' (the form of $CAIRN_TOKENS), where PROJECTS is a
// comma-separated list of project names or *, and ACCESS is rw (read-write)
// or ro (read-only). source names where they came from, for errors.
func ParseTokens(source, s string) ([]Token, error) {
	var out []Token
	n := 0
	for _, entry := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" || strings.HasPrefix(entry, "#") {
			continue
		}
		n++
		name := fmt.Sprintf("%s#%d", source, n)
		parts := strings.Split(entry, ":")
		if len(parts) != 3 && len(parts) != 4 {
			return nil, fmt.Errorf("token %s: write SECRET:PROJECTS:ACCESS[:AGENT], for example SECRET:web,api:rw or SECRET:*:ro:ci-bot (got %d fields)", name, len(parts))
		}
		ro, err := parseAccess(name, parts[2])
		if err != nil {
			return nil, err
		}
		t := Token{Name: name, Secret: strings.TrimSpace(parts[0]), ReadOnly: ro}
		if len(parts) == 4 {
			t.Agent = strings.TrimSpace(parts[3])
		}
		for _, p := range strings.Split(parts[1], ",") {
			if p = strings.TrimSpace(p); p != "" {
				t.Projects = append(t.Projects, p)
			}
		}
		if err := t.validate(); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func parseAccess(name, s string) (readOnly bool, err error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "rw", "read-write":
		return false, nil
	case "ro", "read-only":
		return true, nil
	}
	return false, fmt.Errorf("token %s: access %q: use rw (read-write) or ro (read-only)", name, s)
}

// tokenFile is the JSON form of a tokens file.
type tokenFile struct {
	Tokens []struct {
		Name     string   `json:"name"`
		Token    string   `json:"token"`
		Projects []string `json:"projects"`
		Access   string   `json:"access"`
		Agent    string   `json:"agent"`
	} `json:"tokens"`
}

// LoadTokensFile reads a tokens file: JSON
//
//	{"tokens": [{"name": "ci", "token": "SECRET", "projects": ["web"], "access": "ro"}]}
//
// or, if it does not start with '{', lines of SECRET:PROJECTS:ACCESS.
func LoadTokensFile(path string) ([]Token, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tokens file: %w", err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		return ParseTokens(path, string(b))
	}
	var f tokenFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("tokens file %s: %w; expected {\"tokens\": [{\"name\", \"token\", \"projects\", \"access\"}]}", path, err)
	}
	var out []Token
	for i, ft := range f.Tokens {
		name := ft.Name
		if name == "" {
			name = fmt.Sprintf("%s#%d", path, i+1)
		}
		ro, err := parseAccess(name, ft.Access)
		if err != nil {
			return nil, err
		}
		t := Token{Name: name, Secret: ft.Token, Projects: ft.Projects, ReadOnly: ro, Agent: ft.Agent}
		if err := t.validate(); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tokenSet finds the token a request presents. It compares SHA-256 digests
// in constant time and always looks at every token, so neither the time taken
// nor an early exit says how much of a guess was right.
type tokenSet struct {
	tokens  []Token
	digests [][sha256.Size]byte
	bound   map[string]string // agent name → the token bound to it
}

// boundElsewhere names the token an agent name is bound to when that is not
// the token the request showed (tok nil: none): a name bound to one token
// is refused to every other, or any token could act as ci-bot by naming it.
func (ts *tokenSet) boundElsewhere(agent string, tok *Token) (string, bool) {
	owner, ok := ts.bound[agent]
	if !ok || tok != nil && tok.Name == owner {
		return "", false
	}
	return owner, true
}

func newTokenSet(tokens []Token) (*tokenSet, error) {
	ts := &tokenSet{bound: map[string]string{}}
	seen := map[[sha256.Size]byte]string{}
	for _, t := range tokens {
		if err := t.validate(); err != nil {
			return nil, err
		}
		d := sha256.Sum256([]byte(t.Secret))
		if other, dup := seen[d]; dup {
			return nil, fmt.Errorf("tokens %s and %s have the same secret; give each its own", other, t.Name)
		}
		seen[d] = t.Name
		if t.Agent != "" {
			if other, dup := ts.bound[t.Agent]; dup {
				return nil, fmt.Errorf("tokens %s and %s are both bound to agent %q; bind each agent to one token", other, t.Name, t.Agent)
			}
			ts.bound[t.Agent] = t.Name
		}
		ts.tokens = append(ts.tokens, t)
		ts.digests = append(ts.digests, d)
	}
	return ts, nil
}

func (ts *tokenSet) find(secret string) (Token, bool) {
	d := sha256.Sum256([]byte(secret))
	found := -1
	for i := range ts.digests {
		if subtle.ConstantTimeCompare(d[:], ts.digests[i][:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return Token{}, false
	}
	return ts.tokens[found], true
}

// agentOf is the agent the named token is bound to, if any.
func (ts *tokenSet) agentOf(name string) string {
	for _, t := range ts.tokens {
		if t.Name == name {
			return t.Agent
		}
	}
	return ""
}
