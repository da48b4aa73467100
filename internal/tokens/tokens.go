// Package tokens counts text in o200k_base tokens (the GPT-4o family's
// encoding), the unit Cairn's budgets are written in. Other models'
// tokenizers differ by some percent; o200k is the one number every budget,
// test and benchmark quotes.
package tokens

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

var (
	once sync.Once
	enc  tokenizer.Codec
)

// load builds the encoder once, on first use. Building its vocabulary
// costs about 20 ms of CPU, which is why the hooks, each a new process,
// use Estimate instead. It is built from package codec, not through
// tokenizer.Get, which names every encoding and so links in the tables of
// all four (cl100k, p50k and r50k too: 5 MB of the binary).
func load() tokenizer.Codec {
	once.Do(func() { enc = codec.NewO200kBase() })
	return enc
}

// Count returns how many o200k_base tokens s is. If the encoder cannot be
// built it falls back to an estimate that errs high (a token per three
// bytes), so budgets still hold.
func Count(s string) int {
	if s == "" {
		return 0
	}
	c := load()
	if c == nil {
		return Estimate(s)
	}
	ids, _, err := c.Encode(s)
	if err != nil {
		return Estimate(s)
	}
	return len(ids)
}

// Estimate is a cheap upper estimate of s's token count.
func Estimate(s string) int { return (len(s) + 2) / 3 }
