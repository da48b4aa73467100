package sqlite

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realWAL returns the write-ahead log of a database whose one table and
// row were committed and never checkpointed: what SQLite itself writes.
func realWAL(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "src.db")
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t(x); INSERT INTO t VALUES ('kept')`); err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(path + "-wal")
	if err != nil || len(wal) < walHeaderSize+walFrameHeader {
		t.Fatalf("no log to copy (%d bytes): %v", len(wal), err)
	}
	return wal
}

// TestEmptyFileExcusedOnlyByWhatSQLiteRecovers: a 0-byte database is
// refused whatever stands beside it but a hot journal. The hooks leave -wal
// and -shm files beside every store, which used to excuse a truncated one;
// even a log with commits does not (see the next test).
func TestEmptyFileExcusedOnlyByWhatSQLiteRecovers(t *testing.T) {
	wal := realWAL(t)
	flipped := append([]byte(nil), wal...)
	flipped[walHeaderSize+walFrameHeader+100] ^= 0xff // a byte of the first frame's page
	noCommit := append([]byte(nil), wal[:walHeaderSize+walFrameHeader+int(binary.BigEndian.Uint32(wal[8:]))]...)
	binary.BigEndian.PutUint32(noCommit[walHeaderSize+4:], 0) // the first frame is no commit, and the log ends there
	journal := func(records uint32, size int) []byte {
		b := make([]byte, size)
		copy(b, journalMagic[:])
		binary.BigEndian.PutUint32(b[8:], records)
		binary.BigEndian.PutUint32(b[20:], 512)
		binary.BigEndian.PutUint32(b[24:], 4096)
		return b
	}
	for _, c := range []struct {
		name   string
		beside map[string][]byte
		empty  bool
	}{
		{"nothing beside", nil, true},
		{"a -shm file", map[string][]byte{"-shm": make([]byte, 32768)}, true},
		{"an empty -wal and a -shm", map[string][]byte{"-wal": nil, "-shm": make([]byte, 32768)}, true},
		{"a -wal of junk", map[string][]byte{"-wal": []byte("not a log at all, but long enough to be read as a header")}, true},
		{"a -wal header only", map[string][]byte{"-wal": wal[:walHeaderSize]}, true},
		{"a -wal with a flipped byte", map[string][]byte{"-wal": flipped}, true},
		{"a -wal with no commit", map[string][]byte{"-wal": noCommit}, true},
		{"a -journal with no records", map[string][]byte{"-journal": journal(0, 4608)}, true},
		{"a -journal of junk", map[string][]byte{"-journal": make([]byte, 4608)}, true},
		{"a -wal with a commit", map[string][]byte{"-wal": wal, "-shm": make([]byte, 32768)}, true},
		{"a hot -journal", map[string][]byte{"-journal": journal(1, 4608)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cairn.db")
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			for suffix, b := range c.beside {
				if err := os.WriteFile(path+suffix, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := emptyFile(path); got != c.empty {
				t.Fatalf("emptyFile = %v, want %v", got, c.empty)
			}
		})
	}
}

// TestSQLiteDiscardsTheLogOfAnEmptyDatabase pins why a log never excuses a
// 0-byte database: SQLite deletes it at the first open instead of
// replaying it. So the refusal, which opens nothing, tells a person to
// copy the log first, and walHasCommit (checked here against a log SQLite
// wrote, and against the same log broken) is what says there is one.
func TestSQLiteDiscardsTheLogOfAnEmptyDatabase(t *testing.T) {
	wal := realWAL(t)
	flipped := append([]byte(nil), wal...)
	flipped[walHeaderSize+walFrameHeader+100] ^= 0xff
	dir := t.TempDir()
	for name, b := range map[string][]byte{"good-wal": wal, "flipped-wal": flipped} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !walHasCommit(filepath.Join(dir, "good-wal")) || walHasCommit(filepath.Join(dir, "flipped-wal")) {
		t.Fatal("walHasCommit does not tell SQLite's log from the same log with a flipped byte")
	}

	path := filepath.Join(dir, "cairn.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", wal, 0o644); err != nil {
		t.Fatal(err)
	}
	err := CheckNotEmpty(path)
	if !errors.Is(err, ErrEmptyDatabase) || !strings.Contains(err.Error(), "copy that file somewhere safe") {
		t.Fatalf("CheckNotEmpty: %v", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("SQLite read %d tables from the log of an empty database (%v): the log can excuse one after all", n, err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		if b, _ := os.ReadFile(path + "-wal"); len(b) > 0 {
			t.Fatalf("SQLite kept the log (%d bytes)", len(b))
		}
	}
}
