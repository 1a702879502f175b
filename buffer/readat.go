package buffer

// Offset-passing varint reads. Generated readers decode a run of varint
// fields with a local offset instead of going through the Reader for each
// field: the offset stays in a register and the Reader's fields are loaded
// and stored once per run (BenchmarkReadVarintRun). Each helper checks its
// own bounds. An error is a negative offset, which every later helper passes
// through unchanged, so a run checks once at its end:
//
//	in, off := r.Bytes(), r.Offset()
//	x.A, off = buffer.ReadVarInt32At(in, off)
//	x.B, off = buffer.ReadVarInt64At(in, off)
//	r.CommitRun(off)

// Negative offsets returned on error. They lie far below -9, so that the
// varint reads check their bounds with one unsigned compare (fits): an error
// offset plus a read's width is still negative, that is huge as a uint
// (instructions.sh NumericStruct forygen Deserialize: three instructions a
// varint fewer than off >= 0 && len(buf)-off >= 8). Callers pass a Reader
// offset or one these helpers returned, never an offset of their own making.
const (
	offTruncated = -1 << 24
	offOverflow  = offTruncated - 1
)

// fits reports whether buf[off:off+n] is in bounds, for an offset as above
// and n at most 9.
func fits(buf []byte, off, n int) bool {
	return uint(off)+uint(n) <= uint(len(buf))
}

// ReadVarUint32At decodes a varu32 at buf[off:] and returns it with the
// offset after it; see the file comment for errors.
func ReadVarUint32At(buf []byte, off int) (uint32, int) {
	if fits(buf, off, 8) {
		// One 8-byte load holds the whole varint; each step adds the next
		// 7-bit group while the previous byte's continuation bit is set.
		w := ReadUint64At(buf, off)
		x := w & 0x7f
		if w&0x80 == 0 {
			return uint32(x), off + 1
		}
		x |= w >> 1 & (0x7f << 7)
		if w&0x8000 == 0 {
			return uint32(x), off + 2
		}
		x |= w >> 2 & (0x7f << 14)
		if w&0x800000 == 0 {
			return uint32(x), off + 3
		}
		x |= w >> 3 & (0x7f << 21)
		if w&0x80000000 == 0 {
			return uint32(x), off + 4
		}
		// The 5th byte holds the top 4 bits and may not continue.
		if b4 := w >> 32 & 0xff; b4 <= 0x0f {
			return uint32(x | b4<<28), off + 5
		}
		return 0, offOverflow
	}
	return readVarUint32AtSlow(buf, off)
}

func readVarUint32AtSlow(buf []byte, off int) (uint32, int) {
	if off < 0 {
		return 0, off
	}
	var x uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if off >= len(buf) {
			return 0, offTruncated
		}
		c := buf[off]
		off++
		if shift == 28 {
			if c > 0x0f {
				return 0, offOverflow
			}
			return x | uint32(c)<<28, off
		}
		x |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return x, off
		}
	}
	return 0, offOverflow // unreachable: the loop returns at shift 28
}

// ReadVarInt32At decodes a zz32 at buf[off:].
func ReadVarInt32At(buf []byte, off int) (int32, int) {
	u, off := ReadVarUint32At(buf, off)
	return unzigzag32(u), off
}

// ReadVarUint64At decodes a Fory varu64 at buf[off:] (at most 9 bytes, the
// 9th carrying 8 raw bits).
func ReadVarUint64At(buf []byte, off int) (uint64, int) {
	if fits(buf, off, 9) {
		w := ReadUint64At(buf, off)
		x := w & 0x7f
		if w&0x80 == 0 {
			return x, off + 1
		}
		x |= w >> 1 & (0x7f << 7)
		if w&0x8000 == 0 {
			return x, off + 2
		}
		x |= w >> 2 & (0x7f << 14)
		if w&0x800000 == 0 {
			return x, off + 3
		}
		x |= w >> 3 & (0x7f << 21)
		if w&0x80000000 == 0 {
			return x, off + 4
		}
		// Five bytes or more: finish with the general step.
		for i := uint(4); i < 8; i++ {
			x |= w >> i & (0x7f << (7 * i))
			if w&(0x80<<(8*i)) == 0 {
				return x, off + int(i) + 1
			}
		}
		return x | uint64(buf[off+8])<<56, off + 9
	}
	return readVarUint64AtSlow(buf, off)
}

func readVarUint64AtSlow(buf []byte, off int) (uint64, int) {
	if off < 0 {
		return 0, off
	}
	var x uint64
	for i := 0; i < 8; i++ {
		if off >= len(buf) {
			return 0, offTruncated
		}
		c := buf[off]
		off++
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, off
		}
	}
	if off >= len(buf) {
		return 0, offTruncated
	}
	return x | uint64(buf[off])<<56, off + 1
}

// ReadVarInt64At decodes a zz64 at buf[off:].
func ReadVarInt64At(buf []byte, off int) (int64, int) {
	u, off := ReadVarUint64At(buf, off)
	return unzigzag64(u), off
}

// ReadTaggedInt64At decodes a tagged i64 at buf[off:] (docs/format.md §3).
func ReadTaggedInt64At(buf []byte, off int) (int64, int) {
	if off < 0 || len(buf)-off < 4 {
		return 0, errOff(off)
	}
	x := ReadInt32At(buf, off)
	if x&1 == 0 {
		return int64(x >> 1), off + 4
	}
	if len(buf)-off < 9 {
		return 0, offTruncated
	}
	return ReadInt64At(buf, off+1), off + 9
}

// ReadTaggedUint64At decodes a tagged u64 at buf[off:].
func ReadTaggedUint64At(buf []byte, off int) (uint64, int) {
	if off < 0 || len(buf)-off < 4 {
		return 0, errOff(off)
	}
	x := ReadUint32At(buf, off)
	if x&1 == 0 {
		return uint64(x >> 1), off + 4
	}
	if len(buf)-off < 9 {
		return 0, offTruncated
	}
	return ReadUint64At(buf, off+1), off + 9
}

// errOff keeps an earlier error, else reports truncation.
func errOff(off int) int {
	if off < 0 {
		return off
	}
	return offTruncated
}

// CommitRun ends a run of offset-passing reads started at r.Offset(): it
// moves the reader to off, or records the run's error at the run's start.
func (r *Reader) CommitRun(off int) {
	// The common case inlines into the generated readers; the errors are
	// a call (instructions.sh SmallMessage forygen Deserialize).
	if off >= 0 && r.err == nil {
		r.off = off
		return
	}
	r.commitRunFailed(off)
}

// commitRunFailed is CommitRun for a run that failed, or a reader that had.
func (r *Reader) commitRunFailed(off int) {
	switch {
	case off >= 0:
		// The reader failed before: its error stands.
	case off == offOverflow:
		r.Fail(ErrVarintOverflow)
	default:
		r.Fail(ErrTruncated)
	}
}
