package buffer

import (
	"errors"
	"strconv"
)

// Sentinel errors of [Reader], matched with errors.Is.
var (
	// ErrTruncated means the input ended inside a value.
	ErrTruncated = errors.New("buffer: truncated input")
	// ErrVarintOverflow means a varint does not fit its type: a varu32 whose
	// 5th byte is above 0x0f or has the continuation bit (docs/format.md §3).
	ErrVarintOverflow = errors.New("buffer: varint overflows 32 bits")
)

// Error is the error a [Reader] records: what went wrong and the input offset
// of the value that could not be read.
type Error struct {
	Offset int   // offset of the first byte of the failed read
	Err    error // the cause, usually ErrTruncated or ErrVarintOverflow
}

// Error returns the cause followed by the offset, for example
// "buffer: truncated input at offset 12".
func (e *Error) Error() string {
	return e.Err.Error() + " at offset " + strconv.Itoa(e.Offset)
}

// Unwrap returns the cause, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Err }
