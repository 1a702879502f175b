package foryimpl

import (
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/forygen/forygen/buffer"

	"github.com/forygen/forygen/internal/meta"
)

// Date is serializer.Date's representation here: the two types have the
// same fields, and generated code converts between them (docs/format.md §12).
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// days returns the days since 1970-01-01.
func (d Date) days() int64 {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

func dateFromDays(days int64) Date {
	t := time.Unix(days*86400, 0).UTC()
	return Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
}

// WriteString writes a string as UTF-8 with its header (docs/format.md §7).
func WriteString(b *buffer.Buffer, s string) {
	b.WriteHeaderString(uint64(len(s))<<meta.StringLenShift|meta.StringUTF8, s)
}

// WriteTime writes a TIMESTAMP: i64le seconds, u32le nanoseconds (§12).
func WriteTime(b *buffer.Buffer, t time.Time) {
	b.Reserve(12)
	w, off := b.Window(), b.WriterIndex()
	buffer.PutInt64At(w, off, t.Unix())
	buffer.PutUint32At(w, off+8, uint32(t.Nanosecond()))
	b.SetWriterIndex(off + 12)
}

// WriteDuration writes a DURATION: zz64 seconds, i32le nanoseconds in
// [0, 1e9) (§12).
func WriteDuration(b *buffer.Buffer, d time.Duration) {
	sec := int64(d / time.Second)
	nsec := int64(d % time.Second)
	if nsec < 0 {
		sec--
		nsec += int64(time.Second)
	}
	b.Reserve(buffer.MaxVarUint64Len + 4 + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	off = buffer.PutVarInt64At(w, off, sec)
	buffer.PutInt32At(w, off, int32(nsec))
	b.SetWriterIndex(off + 4)
}

// WriteDate writes a DATE: zz64 days since the epoch (§12).
func WriteDate(b *buffer.Buffer, d Date) { b.WriteVarInt64(d.days()) }

// ReadTime reads a TIMESTAMP into a time in the configured location
// (time.Local by default, as official Go does).
func (c *ReadContext) ReadTime() time.Time {
	// One bounds check for the 12 bytes (instructions.sh SmallMessage
	// forygen Deserialize); a short input or a bad nanosecond count goes
	// the checked way, which says what is wrong.
	if in, off := c.r.Bytes(), c.r.Offset(); c.r.Err() == nil && len(in)-off >= 12 {
		sec := buffer.ReadInt64At(in, off)
		if nsec := buffer.ReadUint32At(in, off+8); nsec < 1e9 {
			c.r.SetOffset(off + 12)
			return time.Unix(sec, int64(nsec)).In(c.opts.TimeLocation)
		}
	}
	return c.readTimeChecked()
}

// readTimeChecked is ReadTime with each read checked.
func (c *ReadContext) readTimeChecked() time.Time {
	sec := c.r.ReadInt64()
	nsec := c.r.ReadUint32()
	if c.r.Err() != nil {
		return time.Time{}
	}
	if nsec >= 1e9 {
		c.r.Fail(malformed("timestamp nanoseconds %d out of range", nsec))
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).In(c.opts.TimeLocation)
}

// ReadDuration reads a DURATION; a value outside time.Duration's range is an
// error.
func (c *ReadContext) ReadDuration() time.Duration {
	sec := c.r.ReadVarInt64()
	nsec := c.r.ReadInt32()
	if c.r.Err() != nil {
		return 0
	}
	if nsec < 0 || nsec >= 1e9 {
		c.r.Fail(malformed("duration nanoseconds %d out of range", nsec))
		return 0
	}
	const maxSec = math.MaxInt64 / int64(time.Second)
	if sec > maxSec || sec < -maxSec-1 {
		c.r.Fail(malformed("duration of %d seconds overflows time.Duration", sec))
		return 0
	}
	// sec·1e9 + nsec, without overflowing on the way: a negative duration
	// within a second of the minimum has sec·1e9 below MinInt64 (the writer
	// rounds seconds down and keeps nsec in [0, 1e9)), so negative seconds
	// are scaled as (sec+1)·1e9 and nsec−1e9 added.
	var d int64
	if sec >= 0 {
		d = sec * int64(time.Second)
		if d > math.MaxInt64-int64(nsec) {
			c.r.Fail(malformed("duration overflows time.Duration"))
			return 0
		}
		d += int64(nsec)
	} else {
		d = (sec + 1) * int64(time.Second)
		rem := int64(nsec) - int64(time.Second)
		if d < math.MinInt64-rem {
			c.r.Fail(malformed("duration overflows time.Duration"))
			return 0
		}
		d += rem
	}
	return time.Duration(d)
}

// ReadDate reads a DATE.
func (c *ReadContext) ReadDate() Date {
	days := c.r.ReadVarInt64()
	if c.r.Err() != nil {
		return Date{}
	}
	// time.Unix handles ±2^63 seconds; bound days so days*86400 cannot wrap.
	const maxDays = math.MaxInt64 / 86400 / 2
	if days > maxDays || days < -maxDays {
		c.r.Fail(malformed("date of %d days out of range", days))
		return Date{}
	}
	return dateFromDays(days)
}

// ReadEnum reads an enum ordinal (a varu32, docs/format.md §12) for an enum
// whose Go type holds at most max; a larger one is a schema mismatch, not a
// value narrowed to another.
func (c *ReadContext) ReadEnum(max uint32) uint32 {
	v := c.r.ReadVarUint32()
	if v > max && c.r.Err() == nil {
		c.r.Fail(mismatch("enum ordinal %d does not fit the Go enum type (at most %d)", v, max))
		return 0
	}
	return v
}

// EnumOutOfRange is the error for an enum value that has no ordinal: a
// negative one, or one above 2^32-1.
func EnumOutOfRange(t *TypeInfo, field string, v int64) error {
	return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
		msg: strconv.FormatInt(v, 10) + " is not an enum ordinal (0 to 4294967295)"}}
}

// Uint16s is s, a slice of a 16-bit float type, as its bits: the same
// memory, for the bulk copies of dense arrays.
func Uint16s[S ~[]E, E ~uint16](s S) []uint16 {
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
