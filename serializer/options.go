package serializer

import (
	"fmt"
	"time"

	"github.com/forygen/forygen/serializer/foryimpl"
)

// Option configures a Fory; pass options to New.
type Option struct{ apply func(*foryimpl.Config) }

// WithCompatible selects compatible mode (true, the default: TypeDefs are
// shared and schemas may evolve) or same-schema mode (false: a schema hash
// per struct, both sides must have the same types). Both sides must use the
// same mode.
func WithCompatible(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.Compatible = on }}
}

// WithTrackRef turns on reference tracking (default off, as official Fory
// Go; Fory's IDL compiler generates peers with it on). With it, a pointer
// to a struct, a dense array, a `type=bytes` field, an `any` value or a
// list or map tagged `ref` that is met again in the same message is written
// as a reference to its first occurrence, and decoding restores the
// sharing: two fields that pointed at one value point at one value again,
// and cycles round-trip. Strings, untagged lists, maps and sets, and
// pointers to primitives are written in full each time, as official Fory
// Go writes them. A field tagged `fory:"ref=false"` is never shared. In
// same-schema mode dense array and `type=bytes` fields are written in full
// too, with no flag, as the other languages write them, unless
// WithOfficialGoForm (docs/format.md §14.30).
//
// The option decides what a Fory writes. Every Fory reads a message the
// way it was written, as the message's root flag says (0x00 when its
// writer tracked references): a Fory without the option reads the
// messages of peers that track references, and one with it reads untracked
// messages.
func WithTrackRef(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.TrackRef = on }}
}

// WithOfficialGoForm writes official Fory Go's bytes in the places where
// official Go departs from the specification and the other languages
// (Python, JavaScript, Java, C++), for a deployment whose peer is official
// Go (default off: forygen writes what the others write; README,
// "Differences from official Fory Go"):
//
//   - in same-schema mode, the schema hash of a struct with a pointer or any
//     field, which official Go hashes as not nullable;
//   - with WithTrackRef, a flag before a struct value field, and a
//     reference flag before a dense array or binary field.
//
// Without it, forygen still reads official Go's hash and its flag before a
// struct value; with it, it still reads the others'. A tracked dense array
// or binary cannot be told apart by its bytes: it is read in the form this
// option selects.
func WithOfficialGoForm(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.OfficialGoForm = on }}
}

// WithMaxDepth bounds the nesting of types that can contain themselves,
// the structs below a skipped field and the field types of a received schema
// (default 20, as official Fory Go). It panics for d < 1, which would make
// every message with a nested struct fail: a programming error, like a
// negative count to strings.Repeat.
func WithMaxDepth(d int) Option {
	if d < 1 {
		panic(fmt.Sprintf("serializer: WithMaxDepth(%d): the depth must be at least 1", d))
	}
	return Option{func(c *foryimpl.Config) { c.MaxDepth = d }}
}

// WithAliasStrings makes Deserialize copy the input once and decode every
// UTF-8 string as a view into that copy: one allocation for all the strings
// of a message instead of one per string. The trade-off: the copy stays
// alive as long as any decoded string does, so keeping one short string of
// a large message keeps the whole message in memory. The caller's input is
// not retained and may be reused at once.
func WithAliasStrings(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.AliasStrings = on }}
}

// WithBlockAlloc makes decoding take the memory of strings, []byte
// values and slices of bools, numbers and enums from blocks of size bytes,
// a few allocations for many values instead of one a value (a fresh decode
// of the benchmarks' Sample: 1 allocation instead of 9, 28 % less time;
// benchmarks/PERFORMANCE.md, "Block allocation"). A slice of structs,
// strings, pointers, maps or lists is itself allocated as without it.
//
// The trade-off, as with WithAliasStrings: a block stays in memory as long
// as any value carved from it does, and the blocks of a Fory are shared by
// the messages it decodes, so keeping one short string of a message can
// keep up to size bytes alive. A value larger than a quarter of a block is
// allocated on its own. A decoded slice has its capacity cut to its
// length, so appending to it copies instead of writing over its neighbour,
// and decoded strings never change. A size of 0 turns it off (the
// default); a negative size panics. WithAliasStrings and WithZeroCopy take
// precedence for strings; WithZeroCopy for []byte values.
func WithBlockAlloc(size int) Option {
	if size < 0 {
		panic(fmt.Sprintf("serializer: WithBlockAlloc(%d): the block size must not be negative", size))
	}
	return Option{func(c *foryimpl.Config) { c.BlockSize = size }}
}

// WithZeroCopy makes Deserialize decode strings and BINARY []byte values
// (fields tagged `fory:"type=bytes"`) as views of the caller's input, with
// no copy at all, so they cost no allocation (WithAliasStrings copies the
// input once; this does not). Serializing is unaffected.
//
// The contract, as with vtprotobuf's unsafe unmarshal: the input must not
// change for as long as any decoded value is used, and it stays alive as
// long as one is. Writing to the input afterwards changes the decoded
// strings, which Go otherwise guarantees never change. A decoded []byte
// has its capacity cut to its length, so appending to it copies instead of
// overwriting the input, but writing to its elements writes to the input.
//
// Strings sent as UTF-8 (Go and most peers) or as ASCII LATIN1 are views;
// other LATIN1 and UTF-16 strings are converted, so copied. With
// WithZeroCopy, WithAliasStrings has no effect. A Decoder (NewDecoder) of
// such a Fory stays safe on a stream: it never writes over bytes it has
// handed to Decode, and reads the bytes that follow into a new buffer
// instead of moving them to the front of the old one.
func WithZeroCopy(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.ZeroCopy = on }}
}

// WithUTF8Validation controls whether strings must be valid UTF-8 and
// UTF-16 strings well formed (default true): decoding refuses other
// strings, and serializing refuses strings that are not UTF-8, so a program
// can read what it writes. Without it invalid bytes are written and read as
// they are.
func WithUTF8Validation(on bool) Option {
	return Option{func(c *foryimpl.Config) { c.SkipUTF8Check = !on }}
}

// WithTypeDefLimits bounds received TypeDefs (defaults: 4096 body bytes,
// 512 fields, as official Fory Go). Values below 1 keep the default.
func WithTypeDefLimits(maxBodyBytes, maxFields int) Option {
	return Option{func(c *foryimpl.Config) { c.MaxTypeDefBytes, c.MaxTypeDefFields = maxBodyBytes, maxFields }}
}

// WithAllocLimit sets the decode allocation budget: a decode may allocate
// at most perInputByte × len(input) + base bytes (default 64 × len + 64 KiB)
// and fails with ErrLimit before it would allocate more. Raise it to read
// compatible-mode messages whose writer schema has far fewer fields than
// the reader's, in long lists. Values below 1 keep the default.
func WithAllocLimit(perInputByte, base int) Option {
	return Option{func(c *foryimpl.Config) { c.AllocPerByte, c.AllocBase = perInputByte, base }}
}

// WithTimeLocation sets the location of decoded time.Time values (default
// time.Local, as official Fory Go). The wire holds an instant, not a zone:
// WithTimeLocation(time.UTC) makes decoded times compare equal with
// reflect.DeepEqual to times created in UTC.
func WithTimeLocation(loc *time.Location) Option {
	return Option{func(c *foryimpl.Config) { c.TimeLocation = loc }}
}

// WithMaxUnbackedElements sets how many list, map and array elements a
// message may declare beyond one per input byte (default 8192, as Java
// Fory's withMaxUnbackedContainerItems); past that, decoding fails with
// ErrLimit. Only elements that take no bytes need the allowance: structs
// read with a received schema that has no fields, in compatible mode.
// Values below 1 keep the default.
func WithMaxUnbackedElements(n int) Option {
	return Option{func(c *foryimpl.Config) { c.MaxUnbackedElements = n }}
}

// WithAnyTypes names the generated structs an any value decodes to when
// more than one Go type in the program is registered with its id or name
// (two packages with a //fory:generate id=4, for example); decoding such a
// value otherwise fails with ErrSchemaMismatch naming the candidates. Each
// argument is a pointer to a generated struct, such as (*users.User)(nil);
// anything else panics, as a programming error.
func WithAnyTypes(types ...any) Option {
	infos := make([]*foryimpl.TypeInfo, len(types))
	for i, t := range types {
		g, ok := t.(interface{ ForyType() *foryimpl.TypeInfo })
		if !ok {
			panic(fmt.Sprintf("serializer: WithAnyTypes: %T is not a pointer to a forygen-generated struct", t))
		}
		infos[i] = g.ForyType()
	}
	return Option{func(c *foryimpl.Config) { c.AnyTypes = append(c.AnyTypes, infos...) }}
}
