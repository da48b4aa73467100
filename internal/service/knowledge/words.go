package knowledge

// MaxQuery is the longest query (bootstrap's, classify_task's, query_tkb's)
// in bytes: a few words naming a topic.
const MaxQuery = 500
