-- Memory search's own full-text index, as in the embedded store (see
-- internal/store/rank): per project and term, the entries holding it with
-- the term's weighted frequency, the entry's weighted length and the BM25
-- impact postings are read in; per project, entries indexed, their total
-- length and the analyzer that built the index (0: not built; the store
-- builds it from Go, which tokenizes and stems, when it opens the project).
-- ts_rank is not BM25 and reads every match, so the tsvector goes.
DROP INDEX memory_fts;

CREATE TABLE memory_terms (
	project_id bigint  NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	term       text    NOT NULL,
	df         integer NOT NULL,
	PRIMARY KEY (project_id, term)
);

CREATE TABLE memory_postings (
	project_id bigint NOT NULL,
	term       text   NOT NULL,
	entry_id   bigint NOT NULL,
	tf         real   NOT NULL,
	dl         real   NOT NULL,
	impact     real   NOT NULL,
	PRIMARY KEY (project_id, term, entry_id),
	FOREIGN KEY (project_id, entry_id) REFERENCES memory_entries (project_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_postings_by_impact ON memory_postings (project_id, term, impact DESC, entry_id) INCLUDE (tf, dl);
CREATE INDEX memory_postings_by_entry ON memory_postings (project_id, entry_id);

ALTER TABLE projects ADD COLUMN memory_docs bigint NOT NULL DEFAULT 0,
	ADD COLUMN memory_len double precision NOT NULL DEFAULT 0,
	ADD COLUMN memory_analyzer integer NOT NULL DEFAULT 0;
