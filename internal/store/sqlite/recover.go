package sqlite

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
)

// What a 0-byte database may be recovered from (emptyFile). The formats are
// SQLite's own (https://www.sqlite.org/fileformat2.html#walformat and
// #rollbackjournal).

const (
	walHeaderSize   = 32
	walFrameHeader  = 24
	walMagicLE      = 0x377f0682 // checksums of little-endian words
	walMagicBE      = 0x377f0683 // checksums of big-endian words
	walMaxReadBytes = 64 << 20   // a commit further in than this is not looked for
)

// walHasCommit reports whether the write-ahead log at path holds a
// committed transaction SQLite would replay: a valid header, then frames
// whose salts match it and whose running checksum holds, up to a commit
// frame. It reads no further than the first commit.
func walHasCommit(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, walMaxReadBytes), 64<<10)
	var h [walHeaderSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return false
	}
	be := binary.BigEndian
	var order binary.ByteOrder
	switch be.Uint32(h[0:]) {
	case walMagicLE:
		order = binary.LittleEndian
	case walMagicBE:
		order = binary.BigEndian
	default:
		return false
	}
	pageSize := int(be.Uint32(h[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return false
	}
	s0, s1 := walChecksum(order, h[:24], 0, 0)
	if s0 != be.Uint32(h[24:]) || s1 != be.Uint32(h[28:]) {
		return false
	}
	frame := make([]byte, walFrameHeader+pageSize)
	for {
		if _, err := io.ReadFull(r, frame); err != nil {
			return false
		}
		if be.Uint32(frame[0:]) == 0 || string(frame[8:16]) != string(h[16:24]) {
			return false // not a frame of this log's generation
		}
		s0, s1 = walChecksum(order, frame[:8], s0, s1)
		s0, s1 = walChecksum(order, frame[walFrameHeader:], s0, s1)
		if s0 != be.Uint32(frame[16:]) || s1 != be.Uint32(frame[20:]) {
			return false
		}
		if be.Uint32(frame[4:]) > 0 { // the database's size after a commit
			return true
		}
	}
}

// walChecksum continues SQLite's write-ahead log checksum over b (a
// multiple of 8 bytes).
func walChecksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// journalMagic starts a rollback journal's header.
var journalMagic = [8]byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}

// hotJournal reports whether a rollback journal at path has a valid header
// and pages to roll back: what SQLite would replay into the database.
func hotJournal(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [28]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || [8]byte(h[:8]) != journalMagic {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	sector := int64(binary.BigEndian.Uint32(h[20:]))
	pageSize := int64(binary.BigEndian.Uint32(h[24:]))
	if sector < 512 || pageSize < 512 {
		return false
	}
	// Pages follow the header's sector: a journal whose page count is 0
	// and that holds no page after its header has nothing to replay.
	n := int32(binary.BigEndian.Uint32(h[8:]))
	return n != 0 && fi.Size() > sector
}
