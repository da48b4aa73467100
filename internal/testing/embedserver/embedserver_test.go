package embedserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/embedding"
	"github.com/cairn-dev/cairn/internal/memory"
)

func cosine(t *testing.T, a, b string) float64 {
	t.Helper()
	c, err := memory.Cosine(Embed(a), Embed(b))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEmbed_ParaphraseIsCloserThanUnrelated(t *testing.T) {
	for _, tt := range []struct{ text, paraphrase, unrelated string }{
		{"users cannot sign in", "authentication fails for everyone", "the invoice PDF has the wrong font"},
		{"the server panicked with a nil pointer", "process crashed with a segfault", "we prefer small pull requests"},
		{"the dashboard is slow", "high latency on the overview page", "rotate the database password"},
		{"tests fail intermittently in CI", "flaky test in the pipeline", "dark mode colors"},
		{"the job hangs forever", "worker stuck, never returns", "add a column to the table"},
		{"the signup form rejects accented names", "registration breaks on non-ascii characters", "cache exchange rates"},
	} {
		p, u := cosine(t, tt.text, tt.paraphrase), cosine(t, tt.text, tt.unrelated)
		if p <= u {
			t.Errorf("%q: paraphrase %q scores %.3f, unrelated %q scores %.3f", tt.text, tt.paraphrase, p, tt.unrelated, u)
		}
		if p < 0.3 {
			t.Errorf("%q and %q: cosine %.3f, want ≥ 0.3 for a paraphrase", tt.text, tt.paraphrase, p)
		}
	}
}

func TestEmbed_Shape(t *testing.T) {
	v := Embed("Login crashes after the database migration")
	if len(v) != Dim {
		t.Fatalf("dimension %d, want %d", len(v), Dim)
	}
	var norm float64
	for _, f := range v {
		norm += float64(f) * float64(f)
	}
	if math.Abs(norm-1) > 1e-5 {
		t.Fatalf("squared norm %v, want 1", norm)
	}
	w := Embed("Login crashes after the database migration")
	for i := range v {
		if v[i] != w[i] {
			t.Fatal("the same text gave different vectors")
		}
	}
	for _, empty := range []string{"", "   ", "the and of", "!!!"} {
		for _, f := range Embed(empty) {
			if f != 0 {
				t.Fatalf("Embed(%q) is not the zero vector", empty)
			}
		}
	}
}

func TestEmbed_InflectionsMeet(t *testing.T) {
	for _, pair := range [][2]string{
		{"crashes", "crashed"}, {"retries", "retry"}, {"logging", "logged"}, {"caches", "cached"}, {"sign-in", "sign in"},
	} {
		if c := cosine(t, pair[0], pair[1]); c < 0.999 {
			t.Errorf("%q and %q: cosine %.3f, want 1", pair[0], pair[1], c)
		}
	}
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServer_OpenAIShape(t *testing.T) {
	s := Start(t)
	for _, path := range []string{"/v1/embeddings", "/embeddings"} {
		status, body := post(t, s.URL+path, `{"model":"m","input":["sign in","crash"]}`)
		if status != 200 {
			t.Fatalf("%s: status %d: %s", path, status, body)
		}
		var resp response
		if err := json.Unmarshal([]byte(body), &resp); err != nil {
			t.Fatal(err)
		}
		if resp.Object != "list" || resp.Model != "m" || len(resp.Data) != 2 || resp.Data[1].Index != 1 ||
			resp.Data[1].Object != "embedding" || len(resp.Data[0].Embedding) != Dim || resp.Usage.TotalTokens != 3 {
			t.Fatalf("%s: answer %s does not have OpenAI's shape", path, body)
		}
	}
	// A single string is accepted too, as OpenAI does.
	if status, body := post(t, s.URL+"/v1/embeddings", `{"model":"m","input":"one text"}`); status != 200 || !strings.Contains(body, `"index":0`) {
		t.Fatalf("string input: %d %s", status, body)
	}
	if s.Requests() != 3 || s.Texts() != 5 {
		t.Fatalf("Requests() = %d, Texts() = %d; want 3 and 5", s.Requests(), s.Texts())
	}
}

func TestServer_BadRequests(t *testing.T) {
	s := Start(t)
	for _, tt := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/v1/embeddings", `{"model":"m","input":`, 400, "malformed JSON"},
		{"/v1/embeddings", `{"input":["x"]}`, 400, "model is required"},
		{"/v1/embeddings", `{"model":"m","input":[]}`, 400, "input is empty"},
		{"/v1/embeddings", `{"model":"m","input":["x",""]}`, 400, "input[1] is empty"},
		{"/v1/embeddings", `{"model":"m","input":[1,2]}`, 400, "a string or a list of strings"},
		{"/v1/chat/completions", `{}`, 404, "no such endpoint"},
	} {
		status, body := post(t, s.URL+tt.path, tt.body)
		if status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("POST %s %s: %d %s, want %d saying %q", tt.path, tt.body, status, body, tt.status, tt.want)
		}
	}
	resp, err := http.Get(s.URL + "/v1/embeddings")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d, want 405", resp.StatusCode)
	}
}

func TestServer_Failures(t *testing.T) {
	s := Start(t)
	c, err := embedding.New(embedding.Config{URL: s.URL, Model: "test", Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// One failure: the client's retry hides it.
	s.FailNext(1)
	vecs, err := c.Embed(ctx, []string{"users cannot sign in"})
	if err != nil || len(vecs) != 1 || len(vecs[0]) != Dim {
		t.Fatalf("after one failure: %v, %v", vecs, err)
	}
	if s.Requests() != 2 {
		t.Fatalf("Requests() = %d, want 2", s.Requests())
	}
	want := Embed("users cannot sign in")
	for i := range want {
		if vecs[0][i] != want[i] {
			t.Fatal("the vector over HTTP differs from Embed's")
		}
	}

	// Two failures outlast the retry.
	s.FailNext(2)
	if _, err := c.Embed(ctx, []string{"x"}); !errors.Is(err, embedding.ErrProvider) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("after two failures: %v, want a 503 provider error", err)
	}
	if _, err := c.Embed(ctx, []string{"x"}); err != nil {
		t.Fatalf("failures should be used up: %v", err)
	}

	s.FailAll(true)
	for range 3 {
		if _, err := c.Embed(ctx, []string{"x"}); !errors.Is(err, embedding.ErrProvider) {
			t.Fatalf("FailAll: %v, want a provider error", err)
		}
	}
	s.FailAll(false)
	if _, err := c.Embed(ctx, []string{"x"}); err != nil {
		t.Fatalf("after FailAll(false): %v", err)
	}
}

func BenchmarkEmbed(b *testing.B) {
	text := "Invoice emails landed in spam for one customer domain: our SPF record did not include the mail provider, so strict receivers filed invoices as spam."
	for b.Loop() {
		Embed(text)
	}
}

// BenchmarkServer_Batch64 is one client round trip of 64 texts over loopback HTTP.
func BenchmarkServer_Batch64(b *testing.B) {
	s := Start(b)
	c, err := embedding.New(embedding.Config{URL: s.URL, Model: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = "the export job ran out of memory on large tenants, attempt " + strings.Repeat("x", i%7+1)
	}
	for b.Loop() {
		if _, err := c.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
}
