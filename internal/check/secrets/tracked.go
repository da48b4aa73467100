package secrets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"

	"github.com/cairn-dev/cairn/internal/check"
)

// trackedFiles reads the paths git tracks from .git/index, through the
// project's Source (so its size cap holds). nil and no note when the root
// is not a git repository; nil and a note when the index cannot be read.
func trackedFiles(src check.Source) (map[string]bool, string) {
	b, err := src.ReadFile(".git/index")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || !src.Exists(".git/index") {
			return nil, ""
		}
		return nil, "secrets: git's index could not be read (" + err.Error() + "), so every file the walk found was scanned, untracked ones included"
	}
	hashLen := 20
	if cfg, err := src.ReadFile(".git/config"); err == nil && bytes.Contains(bytes.ToLower(cfg), []byte("objectformat = sha256")) {
		hashLen = 32
	}
	names, err := indexPaths(b, hashLen)
	if err != nil {
		return nil, "secrets: git's index could not be decoded (" + err.Error() + "), so every file the walk found was scanned, untracked ones included"
	}
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out, ""
}

// indexPaths reads the entry paths of a git index file (versions 2, 3 and
// 4; https://git-scm.com/docs/index-format). Reading it here costs some
// sixty lines; go-git's decoder would bring its hashing packages into the
// binary for the same list.
func indexPaths(b []byte, hashLen int) ([]string, error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not a git index")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("index version %d", version)
	}
	count := int(binary.BigEndian.Uint32(b[8:12]))
	if count > len(b)/40 {
		return nil, errors.New("more entries than the file can hold")
	}
	fixed := 40 + hashLen + 2 // stat data, the object name, the flags
	out := make([]string, 0, count)
	var prev []byte
	at := 12
	for range count {
		if at+fixed > len(b) {
			return nil, errors.New("truncated entry")
		}
		flags := binary.BigEndian.Uint16(b[at+40+hashLen:])
		p := at + fixed
		if flags&0x4000 != 0 && version >= 3 {
			p += 2
		}
		if p > len(b) {
			return nil, errors.New("truncated entry")
		}
		var name []byte
		if version == 4 {
			strip, n := gitVarint(b[p:])
			if n <= 0 || strip > len(prev) {
				return nil, errors.New("bad path prefix")
			}
			p += n
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return nil, errors.New("unterminated path")
			}
			name = append(append([]byte{}, prev[:len(prev)-strip]...), b[p:p+end]...)
			at = p + end + 1
		} else {
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return nil, errors.New("unterminated path")
			}
			name = b[p : p+end]
			// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
			entryLen := p + end - at
			at += (entryLen + 8) &^ 7
		}
		out = append(out, string(name))
		prev = name
	}
	return out, nil
}

// gitVarint reads git's offset varint (each continuation adds one before
// shifting); it returns the value and the bytes read, 0 on a bad one.
func gitVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := int(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 8 {
			return 0, 0
		}
		c = b[i]
		i++
		v = ((v + 1) << 7) + int(c&127)
	}
	return v, i
}
