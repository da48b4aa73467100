SELECT * FROM notes WHERE title LIKE ?;
SELECT id, title FROM notes WHERE pinned = 1 ORDER BY created_at DESC LIMIT;
SELECT id FROM notes WHERE title = 'unterminated;
