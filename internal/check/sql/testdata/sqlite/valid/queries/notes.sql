SELECT n.id, n.title, snippet(notes_fts, 1, '[', ']', '…', 8) AS excerpt
FROM notes_fts
JOIN notes n ON n.id = notes_fts.rowid
WHERE notes_fts MATCH :query
ORDER BY rank
LIMIT ?2;

INSERT INTO notes (title, body) VALUES (@title, @body)
ON CONFLICT (id) DO UPDATE SET body = excluded.body
RETURNING id, created_at;

INSERT OR IGNORE INTO tags (note_id, tag) VALUES ($note, $tag);

WITH RECURSIVE days(d) AS (
    SELECT date('now', '-6 days')
    UNION ALL
    SELECT date(d, '+1 day') FROM days WHERE d < date('now')
)
SELECT d, (SELECT count(*) FROM notes WHERE date(created_at) = d) AS created
FROM days;

SELECT tag, count(*) AS uses, json_group_array(note_id) AS notes
FROM tags
GROUP BY tag
HAVING uses > 1;

DELETE FROM tags WHERE note_id NOT IN (SELECT id FROM notes);
