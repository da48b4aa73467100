package sqlite

// Keeping the write-ahead log bounded.
//
// SQLite checkpoints the log itself (wal_autocheckpoint, 1,000 pages), but
// only starts writing it over from the beginning when a writer begins with
// every frame already copied into the database, and that record lives in
// the -shm file, which the first process to open a database rebuilds from
// the log with nothing copied. A hook is such a process: it opens the
// store, rebuilds the index from the whole log, writes once and exits
// without closing (closing would checkpoint with fsyncs), so the next hook
// finds the log just as long and appends to it. Without a server holding
// the store open beside them, the log only grew, and every hook read all of
// it at open.
//
// So every commit that leaves the log past checkpointAt checkpoints it, on
// a connection of its own that never waits: TRUNCATE, which copies what no
// reader still needs into the database and, if no reader is using the log
// and no one is writing, empties the file; otherwise it backs off at once
// with what it could copy (PASSIVE), and a later commit tries again. The
// writer's journal_size_limit cuts the file back when SQLite starts the log
// over by itself, so it does not stay at its high-water mark either.
//
// What a kill -9 leaves is SQLite's to recover as after any crash: the log
// is emptied only after the database file holding its pages is synced.

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

// checkpointAt is the size of the log past which a commit checkpoints it;
// at 4 KiB pages, about 250 frames: a few hundred small transactions, and
// little for a process opening the store to read.
const checkpointAt = 1 << 20

// checkpointAtLink, when set at link time (go build -ldflags "-X
// github.com/cairn-dev/cairn/internal/store/sqlite.checkpointAtLink=0"),
// replaces checkpointAt in that binary: the durability tests build one that
// checkpoints after every commit, so that their kills land in checkpoints.
var checkpointAtLink string

// journalSizeLimit is what the writer leaves of the log file when it
// starts the log over.
const journalSizeLimit = checkpointAt

// checkpointer checkpoints one database's log when it has grown.
type checkpointer struct {
	wal string       // the -wal file
	at  atomic.Int64 // checkpointAt, or what a test set
	db  *sql.DB      // one connection, busy_timeout 0
	log *slog.Logger
	mu  sync.Mutex // one checkpoint at a time in this process
	n   atomic.Uint64
	// full counts the checkpoints that emptied the log.
	full atomic.Uint64
}

// newCheckpointer opens (lazily: sql.Open connects on first use) the
// connection that checkpoints path's log. Its busy timeout is 0, so a
// checkpoint never waits for a lock: not for another process's write, nor
// for a reader's snapshot.
func newCheckpointer(path string, sync Sync, log *slog.Logger) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn(path, 0, sync, "deferred"))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	c := &checkpointer{wal: path + "-wal", db: db, log: log}
	c.at.Store(checkpointAt)
	if n, err := strconv.ParseInt(checkpointAtLink, 10, 64); err == nil {
		c.at.Store(n)
	}
	return c, nil
}

// afterCommit checkpoints the log if it has grown past c.at: a stat when it
// has not. It never fails the commit before it, which is done; a failure
// other than busy is logged.
func (c *checkpointer) afterCommit(ctx context.Context) {
	if fi, err := os.Stat(c.wal); err != nil || fi.Size() <= c.at.Load() {
		return
	}
	if !c.mu.TryLock() {
		return // another goroutine is at it
	}
	defer c.mu.Unlock()
	if err := c.checkpoint(context.WithoutCancel(ctx)); err != nil && !isBusy(err) {
		c.log.Warn("checkpoint of the database's write-ahead log failed; the next write tries again", "err", err)
	}
}

// checkpoint runs one TRUNCATE checkpoint that waits for nothing.
func (c *checkpointer) checkpoint(ctx context.Context) error {
	var busy, frames, copied int
	if err := c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	c.n.Add(1)
	if busy == 0 {
		c.full.Add(1)
	}
	return nil
}

func (c *checkpointer) close() error { return c.db.Close() }
