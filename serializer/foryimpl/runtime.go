// Package foryimpl is the runtime support of forygen-generated code: the
// read and write contexts, type information, compatible-mode field matching
// and the allocation budget. It is for generated code only: its API follows
// the generator, not compatibility promises, and users call package
// serializer instead. Each generated file checks the version below at
// compile time, so generated code and a runtime it does not match fail to
// build with an error that says to regenerate.
//
// A message is `header | root flag | root type meta | root body`
// (docs/format.md §1).
package foryimpl

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// GenVersion is the version of the generated-code API this runtime serves.
// Version 2: reference tracking (foryWriteRef/foryReadRef dispatch) and the
// any registry; files of version 1 would write untracked bytes under
// WithTrackRef. Version 3: the inlinable read fast paths (BeginReadFast,
// ReadLengthFast, …) and buffer.PutStringAt that generated code calls.
// Version 4: tracked collection elements and map values
// (ReadListHeaderRef, ReadMapChunkRef with the value type id), the
// tracking bit read on every list of structs, ReadPointersAs,
// non-evolving structs (StructSpec.NonEvolving) and one flag for an any.
// Version 5: the other languages' form by default (WithOfficialGoForm):
// WriteContext.SchemaHash, TrackedFieldFlags, ReadStructValueFlag and
// StructSpec.OfficialGoHash; files of version 4 would write official Go's
// tracked flags where version-5 readers expect none.
// Every generated file checks it at compile time: it refers to
// GenVersion6_RunGoGenerate, the constant named after this version, so a
// file generated for another version fails to build with "undefined:
// foryimpl.GenVersionN_RunGoGenerate", the remedy in the compiler's own
// words. (Files written by earlier generators of this version check it with
// two conversions to RegenerateWithMatchingForygen, which overflow unless
// the file was generated for exactly this version.)
const GenVersion = 6

// GenVersion6_RunGoGenerate is the constant files generated for GenVersion
// 5 refer to. Rename it with GenVersion (and gen/internal/emit's
// genVersion): its name is the build error of every stale generated file.
const GenVersion6_RunGoGenerate = GenVersion

// RegenerateWithMatchingForygen is the type of the version check in every
// generated file: `RegenerateWithMatchingForygen(GenVersion - N)` and
// `RegenerateWithMatchingForygen(N - GenVersion)` for the file's version N.
// If the build fails there, the generated code and this runtime differ:
// run go generate with the forygen command of the forygen version in
// go.mod (`go tool forygen`, or `go run github.com/forygen/forygen/cmd/forygen`).
type RegenerateWithMatchingForygen uint

// Config is a Runtime's options. serializer.New fills it from its Options;
// Init replaces zero and negative limits with the defaults.
type Config struct {
	Compatible bool
	// TrackRef is official Fory Go's reference tracking (WithTrackRef):
	// the root and every value of a tracked kind carry a reference flag,
	// and a value met again is written as a back-reference (docs/format.md
	// §2).
	TrackRef      bool
	MaxDepth      int
	AliasStrings  bool
	SkipUTF8Check bool
	// ZeroCopy makes decoded strings and []byte values views of the
	// caller's input (WithZeroCopy); it overrides AliasStrings.
	ZeroCopy bool
	// BlockSize, when positive, makes decoded strings and slices of
	// scalars come from blocks of that many bytes (WithBlockAlloc,
	// blocks.go); AliasStrings and ZeroCopy take precedence for strings.
	BlockSize int
	// TimeLocation is the location of decoded time.Time values; nil is
	// time.Local, as official Fory Go.
	TimeLocation *time.Location
	// MaxTypeDefBytes and MaxTypeDefFields bound received TypeDefs.
	MaxTypeDefBytes, MaxTypeDefFields int
	// AllocPerByte and AllocBase set the decode allocation budget (alloc.go).
	AllocPerByte, AllocBase int
	// AnyTypes are the generated structs an any value decodes to when
	// several Go types share its registration (WithAnyTypes).
	AnyTypes []*TypeInfo
	// MaxUnbackedElements is how many list, map and array elements a
	// message may declare beyond one per input byte (ReadLength).
	MaxUnbackedElements int
	// Stream makes a read accept bytes after the message, which belong to
	// the next message of a stream, and record how many bytes the message
	// took (StreamResult). A Runtime with Stream set serves one stream, so
	// one goroutine at a time.
	Stream bool
	// OfficialGoForm writes official Fory Go's bytes where it departs from
	// the specification and the other languages (WithOfficialGoForm,
	// docs/format.md §14.29, §14.30).
	OfficialGoForm bool
}

// DefaultConfig is official Fory Go's defaults: compatible mode, depth 20,
// TypeDefs up to 4096 body bytes and 512 fields, plus forygen's allocation
// budget.
func DefaultConfig() Config {
	return Config{Compatible: true, MaxDepth: 20,
		MaxTypeDefBytes: meta.DefaultLimits.MaxBodyBytes, MaxTypeDefFields: meta.DefaultLimits.MaxFields,
		AllocPerByte: defaultAllocPerByte, AllocBase: defaultAllocBase, MaxUnbackedElements: defaultMaxUnbacked}
}

// defaultMaxUnbacked is Java Fory's default for the same bound
// (withMaxUnbackedContainerItems).
const defaultMaxUnbacked = 8192

// normalize replaces the limits that are not positive with the defaults.
func (c *Config) normalize() {
	d := DefaultConfig()
	for _, p := range [...]struct{ v, def *int }{{&c.MaxDepth, &d.MaxDepth},
		{&c.MaxTypeDefBytes, &d.MaxTypeDefBytes}, {&c.MaxTypeDefFields, &d.MaxTypeDefFields},
		{&c.AllocPerByte, &d.AllocPerByte}, {&c.AllocBase, &d.AllocBase}, {&c.MaxUnbackedElements, &d.MaxUnbackedElements}} {
		if *p.v <= 0 {
			*p.v = *p.def
		}
	}
	if c.TimeLocation == nil {
		c.TimeLocation = time.Local
	}
}

func (c *Config) typeDefLimits() meta.Limits {
	return meta.Limits{MaxBodyBytes: c.MaxTypeDefBytes, MaxFields: c.MaxTypeDefFields}
}

// Runtime is the state behind a serializer.Fory: its options and its read
// contexts. Received schemas are cached per local type (remotes.go). It is safe for concurrent
// use once Init has returned.
type Runtime struct {
	opts Config
	// reader is a read context for one call at a time: taking it is one
	// compare-and-swap of readerBusy and returning it one store, with no
	// write barrier or call, far cheaper than sync.Pool's Get and Put
	// (BenchmarkFixedCost). Concurrent calls that find it busy use the
	// pool. Write contexts live on the output buffer (see BeginWrite).
	reader     *ReadContext
	readerBusy atomic.Uint32
	readers    sync.Pool
	// copyInput is AliasStrings without ZeroCopy: a read decodes a copy
	// of its input, which its strings alias.
	copyInput bool
	// readFastBelow bounds the inputs BeginReadFast takes: 0 for none
	// (copyInput), otherwise the reader's linearBelow.
	readFastBelow uint64
	// consumed and short are the outcome of the last read in stream mode.
	consumed int
	short    bool
}

// Init readies r, which must not be in use, for cfg.
func (f *Runtime) Init(cfg Config) {
	cfg.normalize()
	cfg.ZeroCopy = cfg.ZeroCopy || forceZeroCopy
	f.opts = cfg
	f.copyInput = cfg.AliasStrings && !cfg.ZeroCopy
	f.readers.New = func() any { return makeReadContext(&f.opts) }
	f.reader = makeReadContext(&f.opts)
	f.reader.slot = true
	f.reader.quick = !cfg.Stream
	if !f.copyInput {
		f.readFastBelow = f.reader.linearBelow
	}
}

// Config returns the options f was set up with, limits normalised.
func (f *Runtime) Config() Config { return f.opts }

// TrackRef reports whether f tracks references (WithTrackRef).
func (f *Runtime) TrackRef() bool { return f.opts.TrackRef }

// Compatible reports whether f writes and reads compatible mode.
func (f *Runtime) Compatible() bool { return f.opts.Compatible }

// BeginWrite starts a message whose root is t at b's writer index.
// Generated ForySerializeTo methods call it, write the root prefix the
// generator precomputed (header, root flag and the root's type meta:
// docs/format.md §1, §11.3), the body, and then EndWrite.
func (f *Runtime) BeginWrite(b *buffer.Buffer, t *TypeInfo) *WriteContext {
	// The write context lives on the buffer: a buffer has one writer at a
	// time, so this needs neither a pool nor an atomic. The check for a
	// context set up for this Fory and buffer inlines; the set-up does not
	// (BenchmarkFixedCost).
	c, _ := b.Scratch().(*WriteContext)
	if c == nil || c.f != f || c.buf != b {
		c = f.setUpWrite(b, c)
	}
	// Zero after every call that returned; set again for one that panicked.
	c.depth = 0
	c.stack = c.stack[:0]
	c.err = nil
	// The root is the first type of the message, so its names or TypeDef
	// are always new and its prefix is a constant.
	c.root = t
	c.seen = c.seen[:0]
	if c.trackRef {
		c.resetRefs()
	}
	return c
}

// setUpWrite readies c, or a new context if c is nil, for writes by f into
// b: a buffer's first message, or another Fory's.
func (f *Runtime) setUpWrite(b *buffer.Buffer, c *WriteContext) *WriteContext {
	if c == nil {
		c = &WriteContext{}
		b.SetScratch(c)
	}
	c.f, c.buf = f, b
	c.compatible, c.maxDepth, c.trackRef = f.opts.Compatible, f.opts.MaxDepth, f.opts.TrackRef
	c.fieldFlags = f.opts.Compatible || f.opts.OfficialGoForm
	return c
}

// EndWrite ends a message begun with BeginWrite at start: on error it
// drops what was written and returns the error.
func (c *WriteContext) EndWrite(start int) error {
	if c.err == nil {
		return nil
	}
	return c.fail(start)
}

func (c *WriteContext) fail(start int) error {
	err := c.err
	c.err = nil
	// A failed write may leave values on the stack: do not keep them.
	clear(c.stack)
	c.stack = c.stack[:0]
	c.buf.SetWriterIndex(start)
	return err
}

// BeginRead starts reading one message from data. Generated ForyDeserialize
// methods try BeginReadFast first and call it when that returns nil, compare
// the input's start with the root prefix they would write, and then either
// AcceptRoot, read the body and EndRead, or hand the message to ReadRoot.
// It takes the Fory's own context, or one from the pool when that is busy.
func (f *Runtime) BeginRead(data []byte) *ReadContext {
	c := f.reader
	if !f.readerBusy.CompareAndSwap(0, 1) {
		c = f.readers.Get().(*ReadContext)
	}
	if f.copyInput {
		data = append([]byte(nil), data...)
	}
	c.begin(data)
	return c
}

// BeginReadFast is BeginRead's fast path, which inlines into generated
// ForyDeserialize methods: it takes the Fory's own context, or returns nil
// when that is busy, the input is to be copied or its allocation budget is
// not linear (readFastBelow), and the caller calls BeginRead
// (BenchmarkFixedCost/DeserializeWithContext). It is begin with the budget's
// linear form.
func (f *Runtime) BeginReadFast(data []byte) *ReadContext {
	n := uint64(len(data))
	if n >= f.readFastBelow || !f.readerBusy.CompareAndSwap(0, 1) {
		return nil
	}
	c := f.reader
	// The context is released: its reader holds no error (EndReadFast
	// drops it only without one; release resets it).
	c.r.Load(data)
	// rootTracked(data), with the length already at hand: calling it
	// costs the inlining budget 4 more.
	c.trackRef = n > 1 && data[1] == meta.FlagRefValue
	c.budget = n*c.perByte + c.linearBase
	c.elems = n + c.unbacked
	// depth is 0: a read that succeeded left every Enter with its Leave,
	// and one that failed went through release, which zeroes it. Not
	// zeroing it here keeps BeginReadFast within the inlining budget
	// (instructions.sh SmallMessage forygen Deserialize).
	return c
}

// AcceptRoot skips the first n bytes of the message, which equal the root
// prefix of t in this context's mode, and registers what that type meta
// defined, so the body can be read on the generated fast path.
func (c *ReadContext) AcceptRoot(n int, t *TypeInfo) { c.acceptRoot(n, t, t.self) }

// acceptRoot is AcceptRoot with self, t's TypeDef as this message defines
// it (t.tracked.self with reference tracking: AcceptRootRef).
func (c *ReadContext) acceptRoot(n int, t *TypeInfo, self *remoteDef) {
	c.r.SetOffset(n)
	if c.compatible {
		// The table is empty (begin): storing into the room a previous
		// message left takes no length check or growth branch
		// (BenchmarkFixedCost/DeserializeWithContext).
		if cap(c.defs) != 0 {
			c.defs = c.defs[:1]
			c.defs[0] = self
		} else {
			c.defs = append(c.defs, self)
		}
	} else if t.ByName {
		c.names = append(c.names, t.Namespace, t.TypeName)
	}
}

// ReadRoot reads a message whose start is not the root prefix m would
// write: another writer's TypeDef (schema evolution), a back-referenced
// name, or bad input. It ends the read like EndRead.
func (f *Runtime) ReadRoot(c *ReadContext, m Message) error {
	t := m.ForyType()
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	present := false
	if c.trackRef {
		// The root is object 0 when its flag is 0x00.
		st, id := c.ReadRefFlag()
		if st == RefBack && r.Err() == nil {
			r.Fail(malformed("a reference as the root value"))
		}
		if present = st == RefFollows; id >= 0 {
			c.setRef(id, refEntry{v: m})
		}
		if st == RefNull && r.Err() == nil {
			r.Fail(malformed("null root value"))
		}
	} else {
		present = c.ReadFlag()
	}
	if present {
		if ev := c.ReadStructMeta(t); ev != nil {
			m.ForyReadEvolved(c, ev)
		} else if r.Err() == nil {
			m.ForyRead(c)
		}
	} else if r.Err() == nil {
		r.Fail(malformed("null root value"))
	}
	return f.EndRead(c, t)
}

// EndRead checks that the whole input was read, returns the context and
// reports the first error as a *DecodeError. Generated code calls it when
// EndReadFast does not apply.
func (f *Runtime) EndRead(c *ReadContext, t *TypeInfo) error {
	var err error
	if r := &c.r; r.Err() != nil || r.Remaining() != 0 && !f.opts.Stream {
		if f.opts.Stream {
			f.short = isShort(r.Err())
		}
		err = c.decodeError(t)
	} else if f.opts.Stream {
		f.consumed = r.Offset()
	}
	c.release()
	if c.slot {
		f.readerBusy.Store(0)
	} else {
		f.readers.Put(c)
	}
	return err
}

// EndReadFast is EndRead's fast path, which inlines into generated
// ForyDeserialize methods: it ends a read of the Fory's own context that
// succeeded and reports true; for any other it does nothing and reports
// false, and the caller calls EndRead (BenchmarkFixedCost/
// DeserializeWithContext).
func (f *Runtime) EndReadFast(c *ReadContext) bool {
	// The path is empty: generated code adds to it only after an error.
	if r := &c.r; !c.quick || r.Err() != nil || r.Remaining() != 0 || c.refs.n|len(c.evs) != 0 {
		return false
	}
	c.r.Drop()
	c.defs = c.defs[:0]
	c.names = c.names[:0]
	f.readerBusy.Store(0)
	return true
}

// BeginStream readies f, whose Config has Stream set, for the next message
// of its stream.
func (f *Runtime) BeginStream() { f.consumed, f.short = -1, false }

// StreamResult reports the message read since BeginStream, given the length
// of the input it was read from: after success, the bytes it took; after an
// error, whether the input ended inside the message, so that more input
// could complete it.
func (f *Runtime) StreamResult(inputLen int) (consumed int, short bool) {
	if f.consumed < 0 {
		// The generated context-free reader took the whole input; it
		// succeeds only when nothing follows the message.
		return inputLen, f.short
	}
	return f.consumed, f.short
}

// decodeError reports the first error of a read, or trailing input.
func (c *ReadContext) decodeError(t *TypeInfo) error {
	r := &c.r
	if r.Err() == nil {
		r.Fail(malformed("%d trailing bytes after the root value", r.Remaining()))
	}
	off, wrapped := classify(r.Err())
	return &DecodeError{Type: t.GoName, Path: c.pathString(), Offset: off, Err: wrapped}
}
