package embedding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// provider is an httptest endpoint whose answers each test scripts; it records what
// it was sent.
type provider struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	requests []recorded
	answer   func(n int, req request) (status int, body string)
}

type recorded struct {
	path, auth string
	req        request
}

func newProvider(t *testing.T, answer func(n int, req request) (int, string)) *provider {
	p := &provider{t: t, answer: answer}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req request
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("client sent malformed JSON: %v: %s", err, body)
		}
		p.mu.Lock()
		n := len(p.requests)
		p.requests = append(p.requests, recorded{r.URL.Path, r.Header.Get("Authorization"), req})
		p.mu.Unlock()
		status, out := p.answer(n, req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *provider) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.requests)
}

// vec is a recognisable vector for text: its length and first byte, so a test can
// tell which text a vector belongs to.
func vec(text string) []float32 { return []float32{float32(len(text)), float32(text[0]), 1} }

// ok answers in order with vec of each input.
func ok(_ int, req request) (int, string) { return 200, answerFor(req.Input, nil) }

// answerFor builds an OpenAI-shaped body; order, when set, lists the input indexes in
// the order the data array should hold them.
func answerFor(inputs []string, order []int) string {
	if order == nil {
		for i := range inputs {
			order = append(order, i)
		}
	}
	var data []string
	for _, i := range order {
		b, _ := json.Marshal(vec(inputs[i]))
		data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":%s}`, i, b))
	}
	return `{"object":"list","model":"m","data":[` + strings.Join(data, ",") + `],"usage":{"prompt_tokens":1,"total_tokens":1}}`
}

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = time.Millisecond
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func checkVectors(t *testing.T, texts []string, got [][]float32) {
	t.Helper()
	if len(got) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(got), len(texts))
	}
	for i, text := range texts {
		want := vec(text)
		for j := range want {
			if got[i][j] != want[j] {
				t.Fatalf("vector %d = %v, want %v (the vector of %q)", i, got[i], want, text)
			}
		}
	}
}

func TestEmbed_Success(t *testing.T) {
	p := newProvider(t, ok)
	c := newClient(t, Config{URL: p.srv.URL, Model: "nomic-embed-text", APIKey: "key-123"})
	texts := []string{"alpha", "bravo!", "c"}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, texts, got)
	r := p.requests[0]
	if r.path != "/v1/embeddings" || r.auth != "Bearer key-123" || r.req.Model != "nomic-embed-text" {
		t.Fatalf("request = %+v, want POST /v1/embeddings, the bearer key and the model", r)
	}
}

func TestNew_Endpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:11434":                  "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/":                 "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/v1":               "http://localhost:11434/v1/embeddings",
		"https://api.openai.com/v1/":              "https://api.openai.com/v1/embeddings",
		"http://h:8080/v1/embeddings":             "http://h:8080/v1/embeddings",
		"http://h/proxy/openai":                   "http://h/proxy/openai/v1/embeddings",
		"https://user:hunter2@gateway.example/v1": "https://user:xxxxx@gateway.example/v1/embeddings",
	} {
		c, err := New(Config{URL: in, Model: "m"})
		if err != nil {
			t.Fatalf("New(%q): %v", in, err)
		}
		if c.Endpoint() != want {
			t.Errorf("New(%q).Endpoint() = %q, want %q", in, c.Endpoint(), want)
		}
	}
}

func TestNew_Errors(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{Model: "m"}, "embedding URL is empty"},
		{Config{URL: "localhost:11434", Model: "m"}, "not an http(s) URL"},
		{Config{URL: "ftp://h/v1", Model: "m"}, "not an http(s) URL"},
		{Config{URL: "http://h"}, "embedding model is empty"},
		{Config{URL: "http://h", Model: "m", BatchSize: -1}, "must not be negative"},
	} {
		if _, err := New(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) error = %v, want it to say %q", tt.cfg, err, tt.want)
		}
	}
}

func TestEmbed_Batches(t *testing.T) {
	p := newProvider(t, ok)
	c := newClient(t, Config{URL: p.srv.URL + "/v1", BatchSize: 2})
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, texts, got)
	var sizes []int
	for _, r := range p.requests {
		sizes = append(sizes, len(r.req.Input))
	}
	if fmt.Sprint(sizes) != "[2 2 1]" {
		t.Fatalf("batch sizes = %v, want [2 2 1]", sizes)
	}
}

func TestEmbed_OrdersByIndex(t *testing.T) {
	p := newProvider(t, func(_ int, req request) (int, string) {
		return 200, answerFor(req.Input, []int{2, 0, 1})
	})
	c := newClient(t, Config{URL: p.srv.URL})
	texts := []string{"first", "second text", "3rd"}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, texts, got)
}

func TestEmbed_RetriesOnceAfterServerError(t *testing.T) {
	for _, status := range []int{500, 503, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			p := newProvider(t, func(n int, req request) (int, string) {
				if n == 0 {
					return status, `{"error":"model is loading"}`
				}
				return ok(n, req)
			})
			c := newClient(t, Config{URL: p.srv.URL})
			got, err := c.Embed(context.Background(), []string{"x"})
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, []string{"x"}, got)
			if p.count() != 2 {
				t.Fatalf("%d requests, want 2", p.count())
			}
		})
	}
}

func TestEmbed_GivesUpAfterOneRetry(t *testing.T) {
	p := newProvider(t, func(int, request) (int, string) { return 502, "<html>Bad Gateway</html>" })
	c := newClient(t, Config{URL: p.srv.URL})
	_, err := c.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrProvider) || !strings.Contains(err.Error(), "502 Bad Gateway: <html>Bad Gateway</html>") {
		t.Fatalf("error = %v, want the status and body", err)
	}
	if !strings.Contains(err.Error(), p.srv.URL+"/v1/embeddings") {
		t.Fatalf("error = %v, want the URL", err)
	}
	if p.count() != 2 {
		t.Fatalf("%d requests, want 2", p.count())
	}
}

func TestEmbed_Unauthorized(t *testing.T) {
	const key = "sk-test-abcdef0123456789"
	p := newProvider(t, func(int, request) (int, string) {
		// Some providers echo the key they were given; it must not reach the error.
		return 401, `{"error":{"message":"Incorrect API key provided: ` + key + `","type":"invalid_request_error"}}`
	})
	c := newClient(t, Config{URL: p.srv.URL, APIKey: key})
	_, err := c.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "401 Unauthorized") || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Fatalf("error = %v, want the 401 and the provider's message", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("error leaks the API key: %v", err)
	}
	if p.count() != 1 {
		t.Fatalf("%d requests, want 1: a 401 is not retried", p.count())
	}
}

func TestEmbed_BadAnswers(t *testing.T) {
	for _, tt := range []struct {
		name, body, want string
	}{
		{"malformed JSON", `{"data": [`, "malformed JSON answer"},
		{"html", `<html>proxy error</html>`, "malformed JSON answer"},
		{"too few vectors", `{"data":[{"index":0,"embedding":[1,2]}]}`, "got 1 vectors for 2 texts"},
		{"too many vectors", `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1]},{"index":2,"embedding":[1]}]}`, "got 3 vectors for 2 texts"},
		{"repeated index", `{"data":[{"index":1,"embedding":[1]},{"index":1,"embedding":[1]}]}`, "index 1"},
		{"index out of range", `{"data":[{"index":0,"embedding":[1]},{"index":5,"embedding":[1]}]}`, "index 5"},
		{"mixed dimensions", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`, "dimension 3, earlier ones 2"},
		{"empty vector", `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1]}]}`, "embedding is empty"},
		{"not numbers", `{"data":[{"index":0,"embedding":["a"]},{"index":1,"embedding":[1]}]}`, "not a list of numbers"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t, func(int, request) (int, string) { return 200, tt.body })
			c := newClient(t, Config{URL: p.srv.URL})
			_, err := c.Embed(context.Background(), []string{"x", "y"})
			if !errors.Is(err, ErrProvider) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want ErrProvider saying %q", err, tt.want)
			}
		})
	}
}

func TestEmbed_MixedDimensionsAcrossBatches(t *testing.T) {
	p := newProvider(t, func(n int, req request) (int, string) {
		if n == 0 {
			return 200, `{"data":[{"index":0,"embedding":[1,2]}]}`
		}
		return 200, `{"data":[{"index":0,"embedding":[1,2,3]}]}`
	})
	c := newClient(t, Config{URL: p.srv.URL, BatchSize: 1})
	if _, err := c.Embed(context.Background(), []string{"x", "y"}); err == nil || !strings.Contains(err.Error(), "dimension 3, earlier ones 2") {
		t.Fatalf("error = %v, want a dimension mismatch", err)
	}
}

func TestEmbed_Base64(t *testing.T) {
	// 1.0 and -2.0 as little-endian float32s.
	p := newProvider(t, func(int, request) (int, string) {
		return 200, `{"data":[{"index":0,"embedding":"AACAPwAAAMA="}]}`
	})
	c := newClient(t, Config{URL: p.srv.URL})
	got, err := c.Embed(context.Background(), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0]) != 2 || got[0][0] != 1 || got[0][1] != -2 {
		t.Fatalf("got %v, want [1 -2]", got)
	}
}

func TestEmbed_EmptyInput(t *testing.T) {
	p := newProvider(t, ok)
	c := newClient(t, Config{URL: p.srv.URL})
	got, err := c.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("Embed(nil) = %v, %v; want nothing", got, err)
	}
	if _, err := c.Embed(context.Background(), []string{"a", "  "}); err == nil || !strings.Contains(err.Error(), "text 1 is empty") {
		t.Fatalf("error = %v, want text 1 named", err)
	}
	if p.count() != 0 {
		t.Fatalf("%d requests, want none", p.count())
	}
}

func TestEmbed_ContextCancelledDuringBackoff(t *testing.T) {
	p := newProvider(t, func(int, request) (int, string) { return 503, "busy" })
	c := newClient(t, Config{URL: p.srv.URL, Backoff: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the context's deadline", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("Embed waited out the backoff despite the context")
	}
}

func TestEmbed_Timeout(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newClient(t, Config{URL: srv.URL, Timeout: 30 * time.Millisecond})
	_, err := c.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrProvider) || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Fatalf("error = %v, want a provider timeout", err)
	}
	if calls.Load() != 2 {
		t.Fatalf("%d attempts, want 2: a timeout is retried once", calls.Load())
	}
}

func TestEmbed_ConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := newClient(t, Config{URL: url})
	_, err := c.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrProvider) || !strings.Contains(err.Error(), url) {
		t.Fatalf("error = %v, want ErrProvider naming %s", err, url)
	}
}
