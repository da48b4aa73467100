package benchseed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// memoryWords is the vocabulary of seeded memory: words a software project's
// notes use, so full-text queries hit a realistic spread of entries (common
// words many, rare words few: the generator draws them Zipf-distributed).
var memoryWords = append(strings.Fields(`
	the store cache query index test build deploy error retry timeout config
	database migration schema table column transaction lock writer reader
	request response handler server client session token auth login user
	file path directory stream buffer queue worker job task plan focus loop
	memory search rank vector embedding snippet page offset limit filter
	latency throughput memory allocation profile benchmark regression flaky
	race deadlock panic nil pointer slice map channel goroutine context cancel
	http json yaml protocol header cookie origin cors proxy bridge tls cert
	docker image container kubernetes pod node cluster volume secret env
	logging metrics tracing alert dashboard incident rollback release tag
	branch merge commit review lint format vet fuzz coverage mock fixture
	parser lexer token grammar compile link module package dependency version
	sqlite postgres wal fsync checkpoint vacuum backup restore replica shard
	frontend backend api endpoint route middleware validation schema error
`), identifiers(4000)...)

// identifiers are the long tail of a project's vocabulary: names of
// functions, files and flags, each rare.
func identifiers(n int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"parse", "load", "save", "open", "close", "flush", "read", "write", "sync", "check", "build", "render",
		"config", "board", "graph", "entry", "index", "cache", "queue", "pool", "conn", "stmt", "node", "edge", "tree"}
	out := make([]string, n)
	for i := range out {
		out[i] = parts[r.IntN(len(parts))] + parts[r.IntN(len(parts))] + fmt.Sprint(i%97)
	}
	return out
}

// memoryTags are the tags seeded entries carry.
var memoryTags = []string{"store", "api", "ci", "perf", "security", "ux", "infra", "search", "docs", "testing"}

// MemoryQueries are search queries over the seeded vocabulary, for
// benchmarks: two or three words, mixing common and rare ones.
func MemoryQueries(n int) []string {
	r := rand.New(rand.NewPCG(7, 7))
	z := rand.NewZipf(r, 1.1, 4, uint64(len(memoryWords)-1))
	out := make([]string, n)
	for i := range out {
		k := 2 + r.IntN(2)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = memoryWords[z.Uint64()]
		}
		out[i] = strings.Join(ws, " ")
	}
	return out
}

// SeedMemory makes dir a Cairn project whose memory holds n generated
// entries of every type, written through the store in batches. dir must
// not hold a database yet.
func SeedMemory(ctx context.Context, dir string, n int) error {
	st, err := openNew(ctx, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	return SeedMemoryStore(ctx, st, n)
}

// SeedMemoryStore writes the n generated entries of SeedMemory into st.
func SeedMemoryStore(ctx context.Context, st store.Store, n int) error {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 4, uint64(len(memoryWords)-1))
	sentence := func(words int) string {
		ws := make([]string, words)
		for i := range ws {
			ws[i] = memoryWords[z.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	const batch = 2000
	for done := 0; done < n; done += batch {
		err := st.Update(ctx, func(tx store.Tx) error {
			for i := done; i < min(n, done+batch); i++ {
				at := t0.Add(time.Duration(i) * time.Minute)
				e := memory.Entry{
					Type:      memory.Types[i%len(memory.Types)],
					Title:     sentence(4+r.IntN(5)) + " " + letters(i),
					Content:   sentence(30 + r.IntN(60)),
					Tags:      []string{memoryTags[r.IntN(len(memoryTags))]},
					Branch:    "main",
					CreatedAt: at, UpdatedAt: at,
				}
				switch e.Type {
				case memory.Decision:
					e.Rationale = sentence(12)
				case memory.Mistake:
					e.RootCause, e.Fix, e.Occurrences = sentence(10), sentence(10), 1
				case memory.Convention:
					e.Examples = []string{sentence(6)}
				}
				if _, err := tx.PutMemory(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("seed memory: %w", err)
		}
	}
	return nil
}

// letters spells i in letters, a word no other entry's title has, so
// mistake fingerprints (which blur digits) stay unique.
func letters(i int) string {
	b := []byte{'q'}
	for ; i > 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// CachedMemory is Cached for a project with n memory entries.
func CachedMemory(ctx context.Context, n int) (string, error) {
	return cached(ctx, fmt.Sprintf("cairn-benchseed-memory-v7-%d", n), func(dir string) error {
		return SeedMemory(ctx, dir, n)
	})
}
