// Package embedserver is a deterministic stand-in for an OpenAI-compatible embedding
// endpoint, for tests that need semantic search without a model.
//
// It answers POST /v1/embeddings (and /embeddings) in OpenAI's shape. A text's vector
// has one dimension per concept of a built-in lexicon of software-project words, so
// paraphrases ("cannot sign in" and "authentication fails") land close together, plus
// hashed dimensions at a lower weight for every other word, so unrelated texts still
// differ. The same text always gets the same vector, on every machine.
package embedserver

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
)

// Dim is the dimension of every vector the server returns.
const Dim = 256

// Weights of a concept hit and of a hashed word. Concepts dominate, as meaning does
// in a real model; the hashed words break ties between texts on the same topic.
const (
	conceptWeight = 1.0
	wordWeight    = 0.45
)

// Handler is the embedding endpoint as an http.Handler. Its methods are safe to call
// while it serves.
type Handler struct {
	failNext atomic.Int64
	failAll  atomic.Bool
	requests atomic.Int64
	texts    atomic.Int64
}

// NewHandler returns a handler that embeds every request.
func NewHandler() *Handler { return &Handler{} }

// FailNext makes the next n requests fail with 503 Service Unavailable.
func (h *Handler) FailNext(n int) { h.failNext.Store(int64(n)) }

// FailAll makes every request fail with 503 until called again with false.
func (h *Handler) FailAll(on bool) { h.failAll.Store(on) }

// Requests is how many requests reached the handler, failed ones included.
func (h *Handler) Requests() int64 { return h.requests.Load() }

// Texts is how many texts the handler has embedded successfully.
func (h *Handler) Texts() int64 { return h.texts.Load() }

type request struct {
	Model string          `json:"model"`
	Input json.RawMessage `json:"input"`
}

type datum struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type response struct {
	Object string  `json:"object"`
	Data   []datum `json:"data"`
	Model  string  `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	if r.URL.Path != "/v1/embeddings" && r.URL.Path != "/embeddings" {
		writeError(w, http.StatusNotFound, "no such endpoint "+r.URL.Path+"; use POST /v1/embeddings")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	if h.failAll.Load() || h.takeFailure() {
		writeError(w, http.StatusServiceUnavailable, "embedserver: failing on purpose")
		return
	}
	var req request
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 32<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON: "+err.Error())
		return
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	var texts []string
	var one string
	if err := json.Unmarshal(req.Input, &texts); err != nil {
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "input must be a string or a list of strings")
			return
		}
		texts = []string{one}
	}
	if len(texts) == 0 {
		writeError(w, http.StatusBadRequest, "input is empty")
		return
	}
	resp := response{Object: "list", Model: req.Model, Data: make([]datum, len(texts))}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("input[%d] is empty", i))
			return
		}
		resp.Data[i] = datum{Object: "embedding", Index: i, Embedding: Embed(t)}
		resp.Usage.PromptTokens += len(strings.Fields(t))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	h.texts.Add(int64(len(texts)))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// takeFailure consumes one of the failures FailNext asked for.
func (h *Handler) takeFailure() bool {
	for {
		n := h.failNext.Load()
		if n <= 0 {
			return false
		}
		if h.failNext.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": msg, "type": "invalid_request_error"}})
}

// Server is a running embedding endpoint. URL is its base URL; point an OpenAI client's
// base URL at URL+"/v1".
type Server struct {
	*Handler
	URL string
}

// Start serves a new Handler on a loopback port until the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	h := NewHandler()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return &Server{Handler: h, URL: srv.URL}
}

// Embed is the server's embedding of text: Dim values, unit length (or all zeros for a
// text without a content word).
func Embed(text string) []float32 {
	v := make([]float64, Dim)
	words := tokenize(text)
	for i := 0; i < len(words); {
		n, ids := matchConcept(words[i:])
		if n > 0 {
			for _, id := range ids {
				v[id] += conceptWeight
			}
			// A lexicon phrase also counts as its words, so the exact wording is a
			// little closer than a synonym.
			for _, w := range words[i : i+n] {
				if !stopwords[w] {
					v[hashDim(w)] += wordWeight / 2
				}
			}
			i += n
			continue
		}
		if w := words[i]; !stopwords[w] && len(w) > 1 {
			v[hashDim(w)] += wordWeight
		}
		i++
	}
	var norm float64
	for _, f := range v {
		norm += f * f
	}
	out := make([]float32, Dim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, f := range v {
		out[i] = float32(f / norm)
	}
	return out
}

// lexicon maps a normalized phrase of one to three words to its concept dimensions.
var lexicon = map[string][]int{}

func init() {
	if len(concepts) >= Dim/2 {
		panic("embedserver: too many concepts for the dimension")
	}
	for id, group := range concepts {
		for _, phrase := range group {
			key := strings.Join(tokenize(phrase), " ")
			if key == "" || strings.Count(key, " ") > 2 {
				panic("embedserver: bad lexicon phrase " + phrase)
			}
			if !containsInt(lexicon[key], id) {
				lexicon[key] = append(lexicon[key], id)
			}
		}
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// matchConcept finds the longest lexicon phrase at the start of words.
func matchConcept(words []string) (int, []int) {
	for n := min(3, len(words)); n >= 1; n-- {
		if ids, ok := lexicon[strings.Join(words[:n], " ")]; ok {
			return n, ids
		}
	}
	return 0, nil
}

// hashDim places a word outside the concept dimensions.
func hashDim(w string) int {
	h := fnv.New32a()
	h.Write([]byte(w))
	return len(concepts) + int(h.Sum32()%uint32(Dim-len(concepts)))
}

// tokenize lowercases text, splits it into runs of letters and digits and stems each.
func tokenize(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for i, f := range fields {
		fields[i] = stem(f)
	}
	return fields
}

// stem strips the commonest English inflections, enough that "crashes", "crashed" and
// "crash" meet. It is deliberately crude: a real model is fuzzier still.
func stem(w string) string {
	if stopwords[w] {
		return w
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	}
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}
