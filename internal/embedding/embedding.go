// Package embedding is a client for OpenAI-compatible embedding endpoints (POST
// /v1/embeddings): OpenAI itself, Ollama, llama.cpp's server, vLLM and the like.
package embedding

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults for the zero values of Config.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultBatchSize = 64
	DefaultBackoff   = 500 * time.Millisecond
	maxRetryAfter    = 10 * time.Second
	bodySnippetBytes = 200
)

// ErrProvider means the embedding endpoint failed or answered something unusable.
// Every error Embed returns for a request that reached the network wraps it, so a
// caller can keep the text and embed it later.
var ErrProvider = errors.New("embedding provider failed")

// Config says where and how to embed.
type Config struct {
	// URL is the endpoint's base URL, with or without /v1 (http://localhost:11434,
	// https://api.openai.com/v1), or the full …/embeddings URL.
	URL string
	// Model is sent as the request's model (nomic-embed-text, text-embedding-3-small).
	Model string
	// APIKey, when set, is sent as a Bearer token. It never appears in errors.
	APIKey string
	// Timeout bounds each HTTP attempt; zero means DefaultTimeout.
	Timeout time.Duration
	// BatchSize is the most texts sent in one request; zero means DefaultBatchSize.
	BatchSize int
	// Backoff is the wait before the one retry of a 429 or 5xx answer, unless the
	// server sends Retry-After; zero means DefaultBackoff.
	Backoff time.Duration
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// Client embeds texts through one endpoint and model. It is safe for concurrent use.
type Client struct {
	endpoint string // full …/embeddings URL
	shown    string // endpoint with any userinfo password masked, for errors
	model    string
	apiKey   string
	timeout  time.Duration
	batch    int
	backoff  time.Duration
	http     *http.Client
}

// New checks cfg and returns a client. It does not contact the endpoint.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.URL) == "" {
		return nil, errors.New("embedding URL is empty: set it to the provider's base URL, e.g. http://localhost:11434/v1")
	}
	u, err := url.Parse(strings.TrimSpace(cfg.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("embedding URL %q is not an http(s) URL: use e.g. http://localhost:11434/v1", redactURL(cfg.URL))
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("embedding model is empty: name the provider's model, e.g. nomic-embed-text")
	}
	if cfg.BatchSize < 0 || cfg.Timeout < 0 || cfg.Backoff < 0 {
		return nil, errors.New("embedding batch size, timeout and backoff must not be negative")
	}
	path := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(path, "/embeddings"):
	case strings.HasSuffix(path, "/v1"):
		path += "/embeddings"
	default:
		path += "/v1/embeddings"
	}
	u.Path, u.RawPath = path, ""
	c := &Client{
		endpoint: u.String(),
		shown:    u.Redacted(),
		model:    cfg.Model,
		apiKey:   cfg.APIKey,
		timeout:  orDefault(cfg.Timeout, DefaultTimeout),
		batch:    orDefault(cfg.BatchSize, DefaultBatchSize),
		backoff:  orDefault(cfg.Backoff, DefaultBackoff),
		http:     cfg.HTTPClient,
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	return c, nil
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Endpoint is the full embeddings URL requests go to, any password masked.
func (c *Client) Endpoint() string { return c.shown }

// Model is the model requests name.
func (c *Client) Model() string { return c.model }

// Embed returns one vector per text, in the order of texts, all of one dimension.
// Texts go in batches of at most BatchSize; a 429 or 5xx answer, or a connection
// failure, is retried once after a backoff. Empty texts are an error (providers reject
// them), as is an answer with the wrong number of vectors or mixed dimensions.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("embed: text %d is empty: embed only non-empty text", i)
		}
	}
	out := make([][]float32, 0, len(texts))
	dim := 0
	for start := 0; start < len(texts); start += c.batch {
		batch := texts[start:min(start+c.batch, len(texts))]
		vecs, err := c.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		for i, v := range vecs {
			if dim == 0 {
				dim = len(v)
			}
			if len(v) != dim {
				return nil, c.fail("vector %d has dimension %d, earlier ones %d", start+i, len(v), dim)
			}
		}
		out = append(out, vecs...)
	}
	return out, nil
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Data []struct {
		Index     *int            `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(request{Model: c.model, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("embed: encode request: %w", err)
	}
	var raw []byte
	for attempt := 0; ; attempt++ {
		var wait time.Duration
		var retry bool
		raw, wait, retry, err = c.post(ctx, body)
		if err == nil {
			break
		}
		if !retry || attempt == 1 {
			return nil, err
		}
		if wait == 0 {
			wait = c.backoff
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("embed: %w (while waiting to retry after: %w)", ctx.Err(), err)
		case <-t.C:
		}
	}
	var resp response
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, c.fail("malformed JSON answer (%v): %s", err, c.snippet(raw))
	}
	if len(resp.Data) != len(texts) {
		return nil, c.fail("got %d vectors for %d texts", len(resp.Data), len(texts))
	}
	vecs := make([][]float32, len(texts))
	for i, d := range resp.Data {
		idx := i // a provider that omits index answers in order
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= len(texts) || vecs[idx] != nil {
			return nil, c.fail("answer has a missing, repeated or out-of-range index %d", idx)
		}
		v, err := decodeEmbedding(d.Embedding)
		if err != nil {
			return nil, c.fail("vector %d: %v", idx, err)
		}
		vecs[idx] = v
	}
	return vecs, nil
}

// post sends one request. retry says whether a second attempt could succeed, and wait
// is the server's Retry-After when it sent one.
func (c *Client) post(ctx context.Context, body []byte) (raw []byte, wait time.Duration, retry bool, err error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, 0, false, fmt.Errorf("embed: build request for %s: %w", c.shown, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, false, fmt.Errorf("embed: POST %s: %w", c.shown, ctx.Err())
		}
		// url.Error repeats the URL unmasked; report the cause only.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, 0, true, c.fail("%s", c.scrub(err.Error()))
	}
	defer resp.Body.Close()
	raw, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, 0, ctx.Err() == nil, c.fail("read answer: %s", c.scrub(err.Error()))
	}
	if resp.StatusCode/100 != 2 {
		retry = resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = min(time.Duration(s)*time.Second, maxRetryAfter)
		}
		return nil, wait, retry, c.fail("%s: %s", resp.Status, c.snippet(raw))
	}
	return raw, 0, false, nil
}

func (c *Client) fail(format string, args ...any) error {
	return fmt.Errorf("embed: POST %s: %s: %w", c.shown, fmt.Sprintf(format, args...), ErrProvider)
}

// snippet is the start of an answer body for an error message, on one line, with the
// API key masked in case the provider echoes it back.
func (c *Client) snippet(raw []byte) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > bodySnippetBytes {
		cut := bodySnippetBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return c.scrub(s)
}

func (c *Client) scrub(s string) string {
	if c.apiKey != "" {
		s = strings.ReplaceAll(s, c.apiKey, "[API key]")
	}
	return s
}

// decodeEmbedding reads a vector as a JSON array of numbers or, from a provider that
// answers in encoding_format=base64, as base64 little-endian float32s.
func decodeEmbedding(raw json.RawMessage) ([]float32, error) {
	var v []float32
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b)%4 != 0 {
			return nil, errors.New("base64 embedding is not a whole number of float32s")
		}
		v = make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	} else if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("embedding is not a list of numbers: %v", err)
	}
	if len(v) == 0 {
		return nil, errors.New("embedding is empty")
	}
	for _, f := range v {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, errors.New("embedding holds NaN or infinity")
		}
	}
	return v, nil
}

func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return "(unparsable URL)"
}
