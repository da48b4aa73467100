-- Memory search's own full-text index (internal/store/rank): per term, the
-- entries holding it with the term's weighted frequency, the entry's
-- weighted length and the BM25 impact the postings are read in. It replaces
-- FTS5, whose bm25() reads every entry holding a word and so cannot rank a
-- query of common words in a large memory within a few milliseconds.
-- The store fills it (from Go, which tokenizes and stems) when it opens a
-- database whose index is missing or was built by another analyzer.
DROP TABLE memory_fts;

CREATE TABLE memory_terms (
	term TEXT    PRIMARY KEY,
	df   INTEGER NOT NULL -- entries holding the term
) WITHOUT ROWID;

CREATE TABLE memory_postings (
	term     TEXT    NOT NULL,
	entry_id INTEGER NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE,
	tf       INTEGER NOT NULL, -- field weights are whole numbers
	dl       INTEGER NOT NULL,
	impact   REAL    NOT NULL, -- BM25 weight without IDF, at the average length when indexed
	PRIMARY KEY (term, entry_id)
) WITHOUT ROWID;
CREATE INDEX memory_postings_by_impact ON memory_postings (term, impact DESC, entry_id, tf, dl);
CREATE INDEX memory_postings_by_entry ON memory_postings (entry_id);

-- One row: entries indexed, their total length, the analyzer that built
-- the index (0: not built).
CREATE TABLE memory_index (
	id        INTEGER PRIMARY KEY CHECK (id = 1),
	docs      INTEGER NOT NULL,
	total_len REAL    NOT NULL,
	analyzer  INTEGER NOT NULL
);
INSERT INTO memory_index (id, docs, total_len, analyzer) VALUES (1, 0, 0, 0);
