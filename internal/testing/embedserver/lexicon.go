package embedserver

// concepts are groups of words and two-word phrases a real embedding model would place
// close together. Each group owns one dimension. A word may sit in more than one group
// ("token" is both a session and a secret word). Words are normalized like input text
// (lowercase, light stemming), so listing one form covers its plurals and tenses
// mostly; irregular forms are listed.
//
// The groups are about software projects in general, not about any test's data: the
// server plays the role of an embedding model, and a model knows that "sign in" and
// "authentication" are related before it has seen anyone's memory.
var concepts = [][]string{
	{"login", "log in", "logon", "sign in", "signin", "sign on", "sso", "authentication", "authenticate", "authenticated", "auth", "credential", "credentials", "password", "passwords", "passwd", "oauth", "oidc", "2fa", "mfa", "otp"},
	{"session", "sessions", "cookie", "cookies", "jwt", "token", "tokens", "logged out", "log out", "logout", "sign out", "expiry", "expire", "expired", "refresh token"},
	{"crash", "crashes", "crashed", "panic", "panics", "panicked", "segfault", "segmentation fault", "abort", "aborted", "fatal", "core dump", "nil pointer", "null pointer", "dereference", "stack trace", "traceback", "blew up", "dies", "died", "killed"},
	{"slow", "slower", "slowness", "latency", "performance", "perf", "sluggish", "lag", "laggy", "speed", "fast", "faster", "throughput", "bottleneck", "p99", "p95", "response time", "takes forever", "milliseconds", "seconds", "hot path", "profile", "profiling", "pprof", "optimize", "optimization"},
	{"database", "databases", "db", "sqlite", "postgres", "postgresql", "mysql", "sql", "table", "tables", "row", "rows", "column", "columns", "transaction", "transactions", "wal", "orm", "store"},
	{"migration", "migrations", "migrate", "schema", "alter table", "ddl", "goose", "add column", "drop column", "backfill"},
	{"test", "tests", "testing", "unit test", "integration test", "assertion", "assert", "coverage", "fixture", "fixtures", "golden", "mock", "mocks", "fake", "suite"},
	{"flaky", "flakes", "flake", "intermittent", "intermittently", "nondeterministic", "sporadic", "sporadically", "sometimes", "occasionally", "randomly", "now and then", "every so often", "heisenbug"},
	{"deploy", "deploys", "deployment", "deployed", "release", "releases", "rollout", "roll out", "ship", "shipping", "production", "prod", "staging", "kubernetes", "k8s", "helm", "canary", "rollback", "roll back", "go live", "live", "cluster", "replica", "replicas", "instance", "instances", "pod", "pods"},
	{"ci", "pipeline", "pipelines", "github actions", "workflow file", "build server", "jenkins", "runner", "runners", "checks", "red build", "green build", "build failure", "build failures", "failing build", "builds fail", "broken build"},
	{"build", "builds", "compile", "compiler", "compilation", "makefile", "linker", "bundler", "webpack", "vite", "cgo", "toolchain", "binary", "binaries"},
	{"dependency", "dependencies", "package", "packages", "module", "modules", "library", "libraries", "vendor", "vendoring", "upgrade", "bump", "pin", "pinned", "go.mod", "npm", "lockfile", "third party", "third-party"},
	{"cache", "caches", "caching", "cached", "memoize", "memoization", "redis", "memcached", "ttl", "invalidate", "invalidation", "stale", "warm", "evict", "eviction"},
	{"memory", "ram", "oom", "out of memory", "leak", "leaks", "leaking", "heap", "allocation", "allocations", "allocate", "gc", "garbage collector", "garbage collection", "rss", "memory usage"},
	{"race", "race condition", "data race", "concurrent", "concurrency", "concurrently", "goroutine", "goroutines", "thread", "threads", "mutex", "lock", "locks", "locking", "deadlock", "deadlocks", "parallel", "simultaneous", "simultaneously", "same time", "atomic", "contention", "overlap", "overlapped", "overlapping", "at once"},
	{"log", "logs", "logging", "logger", "slog", "stderr", "stdout", "verbose", "debug output", "log line", "log level", "printf", "diagnostic", "diagnostics"},
	{"metrics", "metric", "monitoring", "monitor", "alert", "alerts", "alerting", "dashboard", "dashboards", "prometheus", "grafana", "observability", "tracing", "opentelemetry", "pager", "on call", "on-call", "sentry"},
	{"config", "configuration", "configure", "setting", "settings", "env var", "environment variable", "environment variables", "flag", "flags", "option", "options", "dotenv", "yaml", "toml"},
	{"secret", "secrets", "api key", "api keys", "apikey", "vault", "rotate", "rotation", "private key", "leaked", "exposed", "credential leak", "redact", "redaction", "revoke", "revoked"},
	{"error", "errors", "exception", "exceptions", "failure", "fail", "fails", "failed", "failing", "broken", "breaks", "wrap", "wrapping", "sentinel", "errno", "err"},
	{"api", "endpoint", "endpoints", "route", "routes", "router", "handler", "handlers", "rest", "http", "request", "requests", "response", "responses", "grpc", "graphql", "json", "status code"},
	{"timeout", "timeouts", "timed out", "time out", "deadline", "hang", "hangs", "hung", "hanging", "stuck", "freeze", "freezes", "froze", "frozen", "unresponsive", "never returns", "spinner", "waits forever", "stall", "stalled", "stalls", "wait forever", "indefinitely"},
	{"retry", "retries", "retrying", "backoff", "back off", "exponential", "reattempt", "try again", "idempotent", "idempotency", "jitter"},
	{"rate limit", "rate limiting", "rate limited", "throttle", "throttling", "throttled", "429", "quota", "too many requests", "burst", "token bucket"},
	{"email", "emails", "mail", "smtp", "inbox", "notification", "notifications", "notify", "newsletter", "bounce", "bounced", "sendgrid", "mailgun", "spam", "mailer"},
	{"payment", "payments", "billing", "invoice", "invoices", "charge", "charged", "charges", "stripe", "subscription", "subscriptions", "refund", "refunds", "checkout", "card", "price", "pricing", "tax", "vat", "currency", "money", "paid", "pay", "bill", "bills", "reimburse", "reimbursed", "exchange rate", "exchange rates", "fx", "processor", "payment processor", "payment provider"},
	{"user", "users", "account", "accounts", "profile", "customer", "customers", "tenant", "tenants", "signup", "sign up", "register", "registration", "onboarding", "people", "buyer", "buyers", "purchaser", "accountant", "accountants", "bookkeeper", "bookkeepers"},
	{"permission", "permissions", "authorization", "authorize", "authorized", "unauthorized", "role", "roles", "rbac", "access control", "forbidden", "403", "admin", "admins", "privilege", "privileges", "allowed", "scope", "scopes", "rights", "back office", "backoffice"},
	{"ui", "frontend", "front end", "css", "layout", "button", "buttons", "page", "pages", "react", "component", "components", "render", "rendering", "screen", "modal", "dark mode", "theme", "browser", "html", "form", "forms", "field", "fields", "interface", "night mode", "night theme", "black background"},
	{"accessibility", "a11y", "screen reader", "aria", "contrast", "keyboard navigation", "focus ring", "invisible", "unreadable", "readable", "legible", "readability", "alt text", "wcag", "blind", "assistive", "assistive technology", "voiceover"},
	{"translation", "translations", "translate", "localization", "localisation", "i18n", "l10n", "locale", "locales", "language", "languages", "german", "french", "japanese", "plural", "plurals", "czech", "polish", "latin"},
	{"timezone", "timezones", "time zone", "time zones", "utc", "daylight saving", "dst", "clock", "timestamp", "timestamps", "midnight", "date", "dates", "calendar", "local time", "day", "days", "america", "american", "americas", "europe", "european", "asia"},
	{"search", "searching", "full text", "full-text", "fts", "bm25", "ranking", "rank", "relevance", "lookup", "query", "queries", "embedding", "embeddings", "semantic"},
	{"upload", "uploads", "uploaded", "attachment", "attachments", "s3", "bucket", "blob", "object storage", "file size", "multipart", "download", "downloads"},
	{"docker", "container", "containers", "dockerfile", "compose", "image", "images", "alpine", "distroless", "podman"},
	{"git", "commit", "commits", "branch", "branches", "merge", "merged", "rebase", "pull request", "pull requests", "pr", "prs", "review", "reviewer", "reviews", "code review", "main branch", "squash", "repository", "repositories", "repo", "push", "pushed", "code change", "code changes"},
	{"lint", "linter", "linters", "gofmt", "format", "formatting", "style", "naming", "convention", "conventions", "vet", "staticcheck", "golangci", "prettier", "eslint", "idiomatic"},
	{"documentation", "docs", "doc", "readme", "changelog", "comment", "comments", "godoc", "guide", "tutorial", "explain"},
	{"vulnerability", "vulnerabilities", "cve", "injection", "sql injection", "xss", "cross-site", "csrf", "sanitize", "sanitise", "escape", "escaping", "exploit", "attacker", "security", "insecure", "inject", "injected", "script tag", "hijack", "hijacked", "stolen", "steal", "takeover"},
	{"backup", "backups", "restore", "restored", "snapshot", "snapshots", "disaster recovery", "pg_dump", "dump", "point in time", "litestream"},
	{"queue", "queues", "job", "jobs", "worker", "workers", "background", "cron", "scheduler", "scheduled", "async", "asynchronous", "consumer", "producer", "enqueue", "dequeue", "nightly"},
	{"pagination", "paginate", "paginated", "page size", "cursor", "cursors", "offset", "next page", "infinite scroll", "limit", "scroll", "scrolling", "keyset"},
	{"validation", "validate", "validated", "validating", "input", "inputs", "malformed", "invalid", "sanity check", "schema validation", "bad input", "required field", "reject", "rejected"},
	{"delete", "deleted", "deletes", "deletion", "remove", "removed", "drop", "dropped", "data loss", "lost", "lose", "wipe", "wiped", "truncate", "truncated", "purge", "gone", "disappeared", "vanished", "missing", "erase", "erased", "erasing", "destroy", "destroyed"},
	{"encoding", "utf-8", "utf8", "unicode", "charset", "emoji", "mojibake", "non-ascii", "accent", "accents", "accented", "diacritics", "bom", "byte order mark", "garbled", "character", "characters", "glyph", "glyphs"},
	{"network", "dns", "connection", "connections", "socket", "sockets", "tcp", "proxy", "load balancer", "firewall", "port", "ports", "connection refused", "reset by peer", "keepalive", "keep-alive", "name resolution", "host name", "hostname", "no such host"},
	{"tls", "ssl", "certificate", "certificates", "cert", "certs", "https", "x509", "letsencrypt", "let's encrypt", "acme", "handshake", "ca bundle"},
	{"startup", "boot", "booting", "initialization", "initialize", "init", "cold start", "warmup", "warm up", "launch", "starts up"},
	{"disk", "disks", "disk space", "disk full", "volume", "volumes", "inode", "inodes", "filesystem", "file system", "storage full", "no space left", "drive", "drives", "out of space"},
	{"refactor", "refactoring", "refactored", "cleanup", "clean up", "restructure", "tech debt", "technical debt", "simplify", "extract", "rename", "renamed", "dead code"},
	{"feature flag", "feature flags", "toggle", "toggles", "kill switch", "flag rollout", "experiment", "experiments", "a/b test", "gradual"},
	{"csv", "export", "exports", "exported", "import", "imports", "imported", "spreadsheet", "excel", "report", "reports", "xlsx", "statement", "statements", "summary", "summaries"},
	{"webhook", "webhooks", "callback", "callbacks", "event delivery", "signature", "hmac", "payload", "delivery", "deliveries", "deliver", "delivered", "redeliver", "redelivered", "resend", "resent"},
	{"pdf", "pdfs", "print", "printing", "printable", "wkhtmltopdf", "chromium", "headless", "font", "fonts"},
	{"cli", "command line", "command-line", "terminal", "shell", "bash", "subcommand", "cobra", "script", "scripts"},
	{"plan", "planning", "task", "tasks", "todo", "backlog", "roadmap", "milestone", "estimate", "priority", "priorities", "ticket", "tickets"},
	{"prefer", "preference", "preferences", "dislike", "rather", "favour", "favor", "wants", "habit", "habits"},
	{"mistake", "mistakes", "regression", "regressions", "bug", "bugs", "oops", "broke", "postmortem", "post-mortem", "incident", "outage", "lesson", "lessons", "wrong"},
	{"decision", "decided", "decide", "chose", "choose", "chosen", "choice", "adopt", "adopted", "instead", "trade-off", "tradeoff", "alternative", "alternatives", "adr"},
	{"address", "addresses", "postal", "street", "zip code", "postcode", "shipping address"},
	{"float", "floats", "float64", "float32", "floating point", "decimal", "decimals", "integer", "integers", "int64", "rounding", "rounded", "cents", "minor units", "precision"},
	{"duplicate", "duplicates", "duplicated", "twice", "double", "identical", "dedupe", "deduplicate", "deduplication", "more than once"},
	{"sequence", "serial", "serial number", "numbering", "counter", "auto increment", "invoice number", "invoice numbers"},
	{"huge", "large", "big", "million", "millions", "thousands", "hundreds", "at scale", "enormous", "massive"},
	{"bulk", "batch", "batches", "batched", "mass", "en masse", "many", "all at once"},
	{"editor", "ide", "vscode", "vim", "neovim", "emacs", "lsp", "gopls", "autocomplete", "extension"},
	{"mobile", "ios", "android", "phone", "phones", "tablet", "app store", "push notification", "push notifications", "responsive", "small screens"},
	{"image", "images", "thumbnail", "thumbnails", "resize", "resizing", "avatar", "avatars", "jpeg", "png", "webp", "photo", "photos", "picture"},
	{"websocket", "websockets", "realtime", "real-time", "live updates", "server-sent events", "sse", "push", "long polling", "polling", "subscribe"},
	{"cost", "costs", "expensive", "cheap", "cheaper", "spend", "budget", "savings", "aws bill", "cloud bill"},
}

// stopwords carry no meaning for matching.
var stopwords = map[string]bool{}

func init() {
	for _, w := range []string{
		"a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for",
		"with", "from", "into", "onto", "over", "under", "about", "as", "is", "are", "was", "were", "be", "been",
		"being", "it", "its", "this", "that", "these", "those", "there", "here", "we", "our", "us", "you", "your",
		"they", "their", "them", "he", "she", "his", "her", "i", "me", "my", "do", "does", "did", "done", "doing",
		"have", "has", "had", "not", "no", "so", "too", "very", "can", "could", "should", "would", "will", "shall",
		"may", "might", "must", "just", "only", "also", "any", "all", "some", "each", "every", "when", "where",
		"why", "how", "what", "which", "who", "whom", "than", "up", "down", "out", "off", "again", "after",
		"before", "while", "because", "via", "per", "get", "gets", "got", "use", "used", "using", "make", "makes",
		"made", "one", "two", "new", "old", "way", "thing", "things", "still", "now", "even", "more", "most", "less",
		"other", "same", "such", "own", "s", "t", "don", "doesn", "isn", "won", "can't", "don't", "doesn't",
	} {
		stopwords[w] = true
	}
}
