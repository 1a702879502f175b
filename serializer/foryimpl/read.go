package foryimpl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// ReadContext is the per-message state of a read. Generated code uses it;
// users do not need it.
type ReadContext struct {
	r          buffer.Reader
	compatible bool
	// trackRef says the message was written with reference tracking: its
	// root flag is 0x00 (rootTracked), whatever the reader's WithTrackRef
	// says; refs holds the objects read so far, by reference id (refs.go).
	trackRef bool
	refs     readRefs
	// claims holds the backing arrays of the target's tracked slices
	// reused in this message (ReadRefArray): each is reused once.
	claims claimSet
	// fieldFlags is TrackedFieldFlags: compatible mode or official Go's
	// form, fixed with the options.
	fieldFlags bool
	// strMode and skipUTF8 are the string options, copied from opts so
	// ReadString tests them without a pointer chase.
	strMode  stringMode
	skipUTF8 bool
	// copyChecked is the default of both: strings copied and checked.
	copyChecked bool
	maxDepth    int
	depth       int
	opts        *Config
	// path holds field names from the failure outwards, appended by
	// generated code as an error propagates.
	path []string
	// defs holds the TypeDefs received in this message, by index (§11.3).
	defs []*remoteDef
	// names holds the meta strings received in this message, by ref id (§6.3).
	names []string
	// budget is what this decode may still allocate (alloc.go).
	budget uint64
	// elems is how many more list, map and array elements the input may
	// declare: one per input byte plus the unbacked allowance (ReadLength).
	elems uint64
	// lastDef is the index in defs of the TypeDef readSharedTypeDef read
	// last; evs[i] memoizes the field mapping built for defs[i], so a
	// TypeDef referenced many times in one message is matched once.
	lastDef int
	evs     []defEvolution
	// slot marks the Fory's own context (Fory.reader), as opposed to one
	// from its pool.
	slot bool
	// quick says EndRead may take its fast path: the Fory's own context,
	// outside stream mode.
	quick bool
	// perByte, allocBase, reserveFrom and saturateFrom compute begin's
	// allocation budget (allocBudget) without a 128-bit product or a call
	// (BenchmarkFixedCost): unbacked is opts.MaxUnbackedElements.
	perByte, allocBase, reserveFrom, saturateFrom, unbacked uint64
	// For an input shorter than linearBelow bytes the budget is
	// perByte × n + linearBase (BeginReadFast); linearBelow is 0 when no
	// length has that form.
	linearBase, linearBelow uint64
	// blockSize is WithBlockAlloc's block size, 0 without it; block is
	// the current block, of which blockOff bytes are handed out (blocks.go).
	blockSize, blockOff int
	block               []byte
}

// makeReadContext returns a context for reads with the options o.
func makeReadContext(o *Config) *ReadContext {
	c := &ReadContext{compatible: o.Compatible, fieldFlags: o.Compatible || o.OfficialGoForm, trackRef: o.TrackRef, maxDepth: o.MaxDepth, opts: o,
		strMode: stringModeOf(o), skipUTF8: o.SkipUTF8Check, copyChecked: stringModeOf(o) == stringsCopy && !o.SkipUTF8Check, blockSize: max(o.BlockSize, 0),
		perByte: uint64(max(o.AllocPerByte, 1)), allocBase: uint64(max(o.AllocBase, 0)), unbacked: uint64(o.MaxUnbackedElements)}
	// n × perByte + allocBase is above allocReserve from n = reserveFrom
	// on, and overflows from n = saturateFrom on.
	if c.allocBase <= allocReserve {
		c.reserveFrom = (allocReserve-c.allocBase)/c.perByte + 1
	}
	c.saturateFrom = (1<<64-1-c.allocBase)/c.perByte + 1
	if c.reserveFrom == 0 {
		c.linearBase, c.linearBelow = c.allocBase-allocReserve, c.saturateFrom
	}
	return c
}

// budgetFor is opts.allocBudget(n) (TestBudgetFor).
func (c *ReadContext) budgetFor(n uint64) uint64 {
	b := n*c.perByte + c.allocBase
	if n >= c.reserveFrom {
		b -= allocReserve
	}
	if n >= c.saturateFrom {
		b = 1<<64 - 1
	}
	return b
}

// defEvolution is the field mapping of a received TypeDef to a local type.
type defEvolution struct {
	t  *TypeInfo
	ev *Evolution
}

// remoteDef is a TypeDef received in the message.
type remoteDef struct {
	header uint64
	def    *meta.TypeDef
	// raw is the TypeDef's bytes, kept when it may be cached for a local
	// type; bodyLen and nesting are what a cache hit checks against the
	// reading Fory's limits.
	raw     string
	bodyLen int
	nesting int
	// ev is the field mapping to evFor, set once it was accepted.
	ev    *Evolution
	evFor *TypeInfo
}

// begin readies a released context for a read of data. The tables and the
// path are empty: release leaves them so, and a context whose read panicked
// is never used again (the slot stays busy and a pooled context is not put
// back).
func (c *ReadContext) begin(data []byte) {
	c.r.Reset(data)
	c.trackRef = rootTracked(data)
	c.budget = c.budgetFor(uint64(len(data)))
	c.elems = uint64(len(data)) + c.unbacked
	c.depth = 0
}

// untrackedMessage ends the error of a reference flag met in a message read
// without tracking.
const untrackedMessage = "in a message whose root flag 0xff says it was written without reference tracking: " +
	"the writer tracks this value alone (a field tagged ref), which forygen reads only in messages written with " +
	"reference tracking (WithTrackRef(true) on the writer)"

// rootTracked reports whether the message data was written with reference
// tracking: a tracking writer's root flag is 0x00, the first occurrence of
// a tracked object (docs/format.md §2.1), and an untracking writer's 0xff
// or 0xfd. A message is read the way it was written, so a Fory without
// WithTrackRef reads the messages of peers that track references (Fory's
// IDL compiler turns it on for every peer) and one with it reads untracked
// messages; the option decides what the Fory writes.
func rootTracked(data []byte) bool { return len(data) > 1 && data[1] == meta.FlagRefValue }

// release drops the input and empties the per-message tables, for the next
// read.
func (c *ReadContext) release() {
	c.r.Reset(nil)
	c.depth = 0
	c.path = c.path[:0]
	c.defs = c.defs[:0]
	c.names = c.names[:0]
	c.refs.reset()
	// Only a tracked message reuses tracked slices; one read by
	// DeserializeRef has both tables emptied before EndReadFast, any
	// other ends here.
	c.claims.reset()
	if len(c.evs) != 0 {
		clear(c.evs)
		c.evs = c.evs[:0]
	}
}

// Reader returns the input reader.
func (c *ReadContext) Reader() *buffer.Reader { return &c.r }

// Compatible reports whether the message is read in compatible mode.
func (c *ReadContext) Compatible() bool { return c.compatible }

// Failed reports whether an error has been recorded.
func (c *ReadContext) Failed() bool { return c.r.Err() != nil }

// Fail records a decode error at the current offset.
func (c *ReadContext) Fail(err error) { c.r.Fail(err) }

// Trace adds a field name to the path of a recorded error; generated code
// calls it on the way out of a failed read.
func (c *ReadContext) Trace(field string) { c.path = append(c.path, field) }

// TraceIndex adds an element index to the path of a recorded error.
func (c *ReadContext) TraceIndex(i int) { c.path = append(c.path, "["+strconv.Itoa(i)+"]") }

// FailedIn reports whether an error has been recorded, and if so adds field
// to its path: generated readers write `if c.FailedIn("F") { return }`
// after a field, the three lines of Failed and Trace in one (issue 28). It
// inlines to what the three lines did.
func (c *ReadContext) FailedIn(field string) bool {
	if c.r.Err() == nil {
		return false
	}
	c.Trace(field)
	return true
}

// FailedInField is FailedIn for field i of the received schema ev, in the
// evolved reader's loop: the name is looked up only on failure.
func (c *ReadContext) FailedInField(ev *Evolution, i int) bool {
	if c.r.Err() == nil {
		return false
	}
	c.Trace(ev.Field(i).Name())
	return true
}

// FailedAt is FailedIn for the element at index i of a list or map. The
// index's formatting is out of line, so that this inlines.
func (c *ReadContext) FailedAt(i int) bool {
	if c.r.Err() == nil {
		return false
	}
	c.traceIndex(i)
	return true
}

// traceIndex is TraceIndex, not inlined (FailedAt).
//
//go:noinline
func (c *ReadContext) traceIndex(i int) { c.TraceIndex(i) }

func (c *ReadContext) pathString() string {
	var sb strings.Builder
	for i := len(c.path) - 1; i >= 0; i-- {
		if sb.Len() > 0 && !strings.HasPrefix(c.path[i], "[") {
			sb.WriteByte('.')
		}
		sb.WriteString(c.path[i])
	}
	return sb.String()
}

// Enter is called by a generated struct reader before its body and bounds
// the nesting depth (WithMaxDepth). It returns false on error.
func (c *ReadContext) Enter(t *TypeInfo) bool {
	c.depth++
	if c.depth > c.maxDepth {
		c.r.Fail(limit("%s nested deeper than the maximum depth %d", t.GoName, c.maxDepth))
		return false
	}
	return c.r.Err() == nil
}

// Leave ends a struct body started with Enter.
func (c *ReadContext) Leave() { c.depth-- }

// HashMismatch records a same-schema hash mismatch (docs/format.md §10).
func (c *ReadContext) HashMismatch(t *TypeInfo, got int32) {
	c.r.Fail(mismatch("schema hash %d of the input is not the hash %d of %s (regenerate, or use compatible mode)",
		got, t.SchemaHash, t.GoName))
}

// ReadFlag reads a null flag (docs/format.md §2): it returns true for a present
// value and false for null or on error.
func (c *ReadContext) ReadFlag() bool {
	switch f := c.r.ReadUint8(); f {
	case FlagNotNull:
		return true
	case FlagNull:
		return false
	case meta.FlagRefValue:
		if c.trackRef {
			// A tracked value read where the generated reader does not
			// expect one (a field matched with another schema): it takes
			// its reference id, which nothing can refer back to.
			return c.newRef()
		}
		fallthrough
	case meta.FlagRef:
		if c.r.Err() == nil {
			c.r.Fail(&detail{sentinel: ErrUnsupported, msg: fmt.Sprintf("reference-tracking flag 0x%02x %s", f, untrackedMessage)})
		}
		return false
	default:
		if c.r.Err() == nil {
			c.r.Fail(malformed("bad null flag 0x%02x", f))
		}
		return false
	}
}

// ReadLength reads a collection length and checks it against the remaining
// input before anything is allocated: every element takes at least
// minElemBytes bytes (at least 1 is assumed). It returns 0 on error.
func (c *ReadContext) ReadLength(minElemBytes int) int {
	// Lengths below 128 are one byte, read without a call
	// (BenchmarkFixedCost/DeserializeWithContext).
	n, ok := c.r.ReadVarUint32Byte()
	if !ok {
		n = c.r.ReadVarUint32()
	}
	if minElemBytes < 1 {
		minElemBytes = 1
	}
	// Every declared element costs one unit of a budget of one per input
	// byte plus the unbacked allowance: an element that takes no bytes (a
	// struct whose received TypeDef has no fields) would otherwise let
	// nested lists each claim the whole remaining input, and the time to
	// read or skip them grow with its square.
	if uint64(n)*uint64(minElemBytes) > uint64(c.r.Remaining()) || uint64(n) > c.elems {
		// Out of line, so the fast path needs no stack frame for the
		// error's formatting (BenchmarkFixedCost/DeserializeWithContext).
		c.badLength(n, minElemBytes)
		return 0
	}
	c.elems -= uint64(n)
	return int(n)
}

// ReadLengthFast is ReadLength's fast path, which inlines into generated
// readers: a one-byte length that passes ReadLength's checks is read and
// returned. For anything else it reads nothing and returns -1, and the
// caller calls ReadLength (BenchmarkFixedCost/DeserializeWithContext).
// minElemBytes is a constant of at least 1 (the generator's minBytes).
func (c *ReadContext) ReadLengthFast(minElemBytes int) int {
	n := c.r.ReadSmallLength(minElemBytes, c.elems)
	if n > 0 {
		c.elems -= uint64(n)
	}
	return n
}

// badLength records why ReadLength refused the length n.
//
//go:noinline
func (c *ReadContext) badLength(n uint32, minElemBytes int) {
	if uint64(n)*uint64(minElemBytes) > uint64(c.r.Remaining()) {
		if c.r.Err() == nil {
			c.r.Fail(shortInput("length %d exceeds the %d remaining bytes", n, c.r.Remaining()))
		}
		return
	}
	c.r.Fail(limit("more list, map or array elements than the input can hold (%d input bytes and %d unbacked elements: WithMaxUnbackedElements)",
		len(c.r.Bytes()), c.opts.MaxUnbackedElements))
}

// ReadListHeader reads the elements header of a non-empty list of
// non-struct elements whose type id is elemTypeID, and any element type meta
// the header announces. It reports whether elements carry null flags.
func (c *ReadContext) ReadListHeader(elemTypeID byte) (hasNull bool) {
	hasNull, _ = c.readListHeader(elemTypeID, false)
	return hasNull
}

// ReadListHeaderRef is ReadListHeader for a list read with reference
// tracking: tracked reports the header's tracking bit, which puts a
// reference flag before every element (official Go's 0x0d for collection
// elements; Python, Java and JavaScript set it for any element kind they
// track).
func (c *ReadContext) ReadListHeaderRef(elemTypeID byte) (hasNull, tracked bool) {
	return c.readListHeader(elemTypeID, true)
}

// readListHeader reads a non-struct list's elements header; its tracking
// bit is accepted only when trackable holds.
func (c *ReadContext) readListHeader(elemTypeID byte, trackable bool) (hasNull, tracked bool) {
	// c.r.ReadUint8 written out: its shortage call puts it over the
	// inlining budget, and a list header is read in every decode of a
	// list (instructions.sh MediaContentList forygen Deserialize). A
	// failed reader's input ends at its offset (Reader.Fail), so Need
	// fails for it too.
	r := &c.r
	if !r.Need(1) {
		return false, false
	}
	off := r.Offset()
	h := r.Bytes()[off]
	r.SetOffset(off + 1)
	if h&^meta.ListBits != 0 || !trackable && h&meta.ListTrackRef != 0 || h&meta.ListSameType == 0 {
		c.r.Fail(malformed("unsupported list elements header 0x%02x", h))
		return false, false
	}
	if h&meta.ListDeclared == 0 {
		id := c.r.ReadUint8()
		if id != elemTypeID && c.r.Err() == nil {
			c.r.Fail(mismatch("list element type id %d, want %d", id, elemTypeID))
			return false, false
		}
		if id == meta.TypeEnum {
			c.r.ReadVarUint32() // the enum's user id; the field type decides
		}
	}
	return h&meta.ListHasNull != 0, h&meta.ListTrackRef != 0
}

// ReadStructListHeaderRef reads the elements header and the element type
// meta of a non-empty list or set of structs or struct pointers (§8.1: Go
// writes 08 or 0a and the meta once), in every read path: hasNull says
// elements carry null flags; tracked reports the header's tracking bit,
// which puts a reference flag before every element (official Go's 09 for
// struct pointers, Python's, Java's and JavaScript's for struct values
// too); ev is the field mapping when the elements were written with
// another schema.
func (c *ReadContext) ReadStructListHeaderRef(t *TypeInfo) (hasNull, tracked bool, ev *Evolution) {
	// c.r.ReadUint8 written out, as in readListHeader.
	r := &c.r
	if !r.Need(1) {
		return false, false, nil
	}
	off := r.Offset()
	h := r.Bytes()[off]
	r.SetOffset(off + 1)
	if h&^meta.ListBits != 0 || h&meta.ListSameType == 0 {
		c.r.Fail(malformed("unsupported struct list elements header 0x%02x", h))
		return false, false, nil
	}
	if h&meta.ListDeclared == 0 {
		ev = c.ReadStructMeta(t)
	}
	return h&meta.ListHasNull != 0, h&meta.ListTrackRef != 0, ev
}

// ReadStructMeta reads the type meta of a struct value and checks that it
// names t (docs/format.md §5). In compatible mode it reads a shared TypeDef
// entry and returns the field mapping when the TypeDef is not t's own; nil
// means the generated fast path applies.
func (c *ReadContext) ReadStructMeta(t *TypeInfo) *Evolution {
	if c.trackRef {
		t = t.tracked
	}
	if c.compatible {
		// The type meta is t's type id and a one-byte shared-TypeDef
		// marker, either a reference to an entry that was t's own
		// TypeDef or new and followed by exactly t's own TypeDef: consume
		// it and take the generated fast path. Written here rather than
		// called (BenchmarkDeserialize/MediaContent and MediaContentList:
		// every nested struct and list of structs).
		in, off := c.r.Bytes(), c.r.Offset()
		if uint(off+1) < uint(len(in)) && in[off] == t.compatibleTypeID && in[off+1] < 0x80 && !t.metaByID() {
			idx, start := int(in[off+1]>>1), off+2
			if in[off+1]&1 == 1 {
				if uint(idx) < uint(len(c.defs)) && c.defs[idx] == t.self {
					c.r.SetOffset(start)
					c.lastDef = idx
					return nil
				}
			} else if n := len(t.TypeDef); idx == len(c.defs) && len(in)-start >= n && string(in[start:start+n]) == string(t.TypeDef) {
				c.r.SetOffset(start + n)
				c.lastDef = idx
				c.defs = append(c.defs, t.self)
				return nil
			}
		}
	}
	return c.readStructMeta(t)
}

// readStructMeta is ReadStructMeta past its fast path.
func (c *ReadContext) readStructMeta(t *TypeInfo) *Evolution {
	id := c.r.ReadUint8()
	if c.r.Err() != nil {
		return nil
	}
	if c.compatible {
		if id == t.consistentTypeID {
			if c.sameSchemaValue(t) {
				c.r.Fail(mismatch("type id %d and the same-schema hash of %s where %s (type id %d) was expected: "+
					"the writer used same-schema mode and this reader compatible mode; use the same mode on both sides "+
					"(WithCompatible(false) here, or WithCompatible(true) on the writer)", id, t.GoName, t.GoName, t.compatibleTypeID))
				return nil
			}
			return c.readNonEvolvingMeta(t)
		}
		if id != t.compatibleTypeID {
			c.r.Fail(mismatch("type id %d where %s (type id %d) was expected%s", id, t.GoName, t.compatibleTypeID, otherRegistration(id, t)))
			return nil
		}
		d := c.readSharedTypeDef(t)
		if d == nil || d == t.self {
			return nil
		}
		if i := c.lastDef; i < len(c.evs) && c.evs[i].t == t {
			evolvedReads.Add(1)
			return c.evs[i].ev
		}
		ev := c.evolution(t, d)
		if ev != nil {
			for len(c.evs) <= c.lastDef {
				c.evs = append(c.evs, defEvolution{})
			}
			c.evs[c.lastDef] = defEvolution{t, ev}
		}
		return ev
	}
	if id != t.consistentTypeID {
		if id == meta.TypeCompatibleStruct || id == meta.TypeNamedCompatibleStruct {
			c.r.Fail(mismatch("type id %d (a struct with its schema) where %s (type id %d) was expected: "+
				"the writer used compatible mode and this reader did not; use the same mode on both sides (WithCompatible(true) here, "+
				"or WithCompatible(false) on the writer)", id, t.GoName, t.consistentTypeID))
			return nil
		}
		c.r.Fail(mismatch("type id %d where %s (type id %d) was expected%s", id, t.GoName, t.consistentTypeID, otherRegistration(id, t)))
		return nil
	}
	if !t.ByName {
		uid := c.r.ReadVarUint32()
		if uid != t.UserID && c.r.Err() == nil {
			c.r.Fail(mismatch("user type id %d where %s (id %d) was expected", uid, t.GoName, t.UserID))
		}
		return nil
	}
	ns := c.readMetaString(meta.Namespace)
	name := c.readMetaString(meta.TypeName)
	if c.r.Err() == nil && (ns != t.Namespace || name != t.TypeName) {
		c.r.Fail(mismatch("type %q.%q where %s (%q.%q) was expected", ns, name, t.GoName, t.Namespace, t.TypeName))
	}
	return nil
}

// readNonEvolvingMeta reads, in compatible mode, the type meta of a struct
// whose writer turned schema evolution off for its type (official Go's
// ForyEvolving() false, Java's evolving=false, forygen's evolving=false;
// docs/format.md §11.5), whatever the reader's type declares:
// STRUCT and the user id, whose body is then t's own, or NAMED_STRUCT and a
// shared TypeDef, which is matched as any received TypeDef is. The type id
// byte is read.
func (c *ReadContext) readNonEvolvingMeta(t *TypeInfo) *Evolution {
	if !t.ByName {
		if uid := c.r.ReadVarUint32(); uid != t.UserID && c.r.Err() == nil {
			c.r.Fail(mismatch("user type id %d where %s (id %d) was expected", uid, t.GoName, t.UserID))
		}
		return nil
	}
	d := c.readSharedTypeDef(t)
	if d == nil || d == t.self {
		return nil
	}
	return c.evolution(t, d)
}

// sameSchemaValue reports whether the input, whose type id byte (t's
// same-schema id) was just read, holds t's same-schema type meta and hash:
// a same-schema writer's value, not the STRUCT or NAMED_STRUCT of a writer
// that turned evolution off for its type, whose body has no hash
// (docs/format.md §11.5). It reads nothing. A name given before as a
// back-reference is not recognised, so only a first occurrence, as the
// root is, is told apart.
func (c *ReadContext) sameSchemaValue(t *TypeInfo) bool {
	if t.NonEvolving {
		return false
	}
	in, off := c.r.Bytes(), c.r.Offset()-1
	n := len(t.ConsistentMeta)
	return off >= 0 && len(in)-off >= n+4 && string(in[off:off+n]) == string(t.ConsistentMeta) &&
		int32(buffer.ReadUint32At(in, off+n)) == t.SchemaHash
}

// registration names a struct's registration: "name ns.name" ("name
// name" without a namespace) or "id N".
func registration(byName bool, ns, name string, id uint32) string {
	switch {
	case !byName:
		return "id " + strconv.FormatUint(uint64(id), 10)
	case ns == "":
		return strconv.Quote(name)
	}
	return strconv.Quote(ns + "." + name)
}

// otherRegistration explains a struct type id id read where t's was
// expected when the two differ in how they are registered.
func otherRegistration(id byte, t *TypeInfo) string {
	switch {
	case !t.ByName && (id == meta.TypeNamedStruct || id == meta.TypeNamedCompatibleStruct):
		return ": the writer registered the type by name, this reader by id"
	case t.ByName && (id == meta.TypeStruct || id == meta.TypeCompatibleStruct):
		return ": the writer registered the type by id, this reader by name"
	}
	return ""
}

// evolution checks that a received TypeDef describes t's registration and
// returns the field mapping.
func (c *ReadContext) evolution(t *TypeInfo, d *remoteDef) *Evolution {
	td := d.def
	switch {
	case !meta.IsStructKind(td.Kind):
		c.r.Fail(mismatch("received TypeDef of kind %d where struct %s was expected", td.Kind, t.GoName))
		return nil
	case td.ByName != t.ByName || (t.ByName && (td.Namespace != t.Namespace || td.TypeName != t.TypeName)) ||
		(!t.ByName && td.UserID != t.UserID):
		c.r.Fail(mismatch("received TypeDef registers %s where %s (%s) was expected", registration(td.ByName, td.Namespace, td.TypeName, td.UserID),
			t.GoName, registration(t.ByName, t.Namespace, t.TypeName, t.UserID)))
		return nil
	}
	if d.ev != nil && d.evFor == t {
		evolvedReads.Add(1)
		return d.ev
	}
	// Building the mapping allocates per remote field.
	if !c.charge(1, evolutionCost(len(td.Fields))) {
		return nil
	}
	ev, err := buildEvolution(t, td)
	if err != nil {
		c.r.Fail(err)
		return nil
	}
	// Accepted: cache it for t (remotes.go), charging the copy of the
	// entry list. A TypeDef without raw bytes came from a skipped value's
	// meta and is not cached.
	if d.raw != "" {
		d.ev, d.evFor = ev, t
		if n := t.remotes.add(d); n > 0 && !c.charge(uint64(n), cacheEntryCost) {
			return nil
		}
	}
	evolvedReads.Add(1)
	return ev
}

// readSharedTypeDef reads a shared meta marker and, for a new entry, the
// TypeDef (§11.3). A TypeDef whose bytes equal t's own is not parsed.
func (c *ReadContext) readSharedTypeDef(t *TypeInfo) *remoteDef {
	marker := c.r.ReadVarUint32()
	if c.r.Err() != nil {
		return nil
	}
	idx := int(marker >> 1)
	if marker&1 == 1 {
		if idx >= len(c.defs) {
			c.r.Fail(malformed("reference to TypeDef #%d, only %d received", idx, len(c.defs)))
			return nil
		}
		c.lastDef = idx
		return c.defs[idx]
	}
	if idx != len(c.defs) {
		c.r.Fail(malformed("new TypeDef numbered #%d, expected #%d", idx, len(c.defs)))
		return nil
	}
	in := c.r.Bytes()[c.r.Offset():]
	var d *remoteDef
	switch {
	case t != nil && len(in) >= len(t.TypeDef) && string(in[:len(t.TypeDef)]) == string(t.TypeDef):
		d = t.self
		c.r.Skip(len(t.TypeDef))
	case t != nil:
		if d = t.remotes.lookup(in); d != nil {
			lim := c.opts.typeDefLimits()
			switch {
			case d.bodyLen > lim.MaxBodyBytes || len(d.def.Fields) > lim.MaxFields:
				c.r.Fail(limit("received TypeDef of %d body bytes and %d fields is over the limits (WithTypeDefLimits)", d.bodyLen, len(d.def.Fields)))
				return nil
			case d.nesting > c.maxDepth:
				c.r.Fail(limit("received TypeDef nests field types %d levels deep, more than the maximum depth %d", d.nesting, c.maxDepth))
				return nil
			}
			c.r.Skip(len(d.raw))
			break
		}
		fallthrough
	default:
		if d = c.parseTypeDef(in, t != nil); d == nil {
			return nil
		}
	}
	c.lastDef = len(c.defs)
	c.defs = append(c.defs, d)
	return d
}

// parseTypeDef parses the TypeDef at the start of in and skips it; keep
// says to keep its bytes, for the cache of the type it may be accepted for.
func (c *ReadContext) parseTypeDef(in []byte, keep bool) *remoteDef {
	td, n, err := meta.ParseTypeDef(in, c.opts.typeDefLimits())
	if err != nil {
		var te *meta.TypeDefError
		isTD := errors.As(err, &te)
		if isTD && te.OverLimit {
			c.r.Fail(limit("%v (WithTypeDefLimits)", err))
			return nil
		}
		c.r.Fail(&detail{sentinel: ErrMalformed, msg: err.Error(), short: isTD && te.Truncated})
		return nil
	}
	// Parsing allocates per field. The field types nest at most
	// WithMaxDepth levels, like the values they describe.
	if !c.charge(1, typeDefCost(n, len(td.Fields))) {
		return nil
	}
	d := &remoteDef{header: td.Header, def: td, nesting: typeDefNesting(td)}
	if d.nesting > c.maxDepth {
		c.r.Fail(limit("received TypeDef nests field types %d levels deep, more than the maximum depth %d", d.nesting, c.maxDepth))
		return nil
	}
	// Encoded aliases the caller's input: a cached TypeDef must not pin
	// (or see later changes to) a buffer the caller owns.
	td.Encoded = nil
	if keep {
		d.raw = string(in[:n])
		_, d.bodyLen = typeDefSize(in[:n])
	}
	c.r.Skip(n)
	return d
}

// readMetaString reads an inline meta string (§6.3), new or referenced.
func (c *ReadContext) readMetaString(ctx meta.Context) string {
	h := c.r.ReadVarUint32()
	if c.r.Err() != nil {
		return ""
	}
	if h&1 == 1 {
		id := int(h>>1) - 1
		if id < 0 || id >= len(c.names) {
			c.r.Fail(malformed("meta string reference %d out of range", id))
			return ""
		}
		return c.names[id]
	}
	n := int(h >> 1)
	var enc meta.Encoding
	switch {
	case n == 0:
		c.names = append(c.names, "")
		return ""
	case n <= 16:
		enc = meta.Encoding(c.r.ReadUint8())
	default:
		hash := c.r.ReadUint64()
		enc = meta.Encoding(hash & 0xff)
	}
	raw := c.r.ReadBytes(n)
	if c.r.Err() != nil {
		return ""
	}
	s, err := meta.DecodeMetaString(enc, raw, ctx)
	if err != nil {
		c.r.Fail(&detail{sentinel: ErrMalformed, msg: err.Error()})
		return ""
	}
	c.names = append(c.names, s)
	return s
}

// ReadArrayLength reads the byte length of a dense array (§8.2) and returns
// the element count; the byte length must be a multiple of width.
func (c *ReadContext) ReadArrayLength(width int) int {
	n := c.ReadLength(1)
	if n%width != 0 {
		if c.r.Err() == nil {
			c.r.Fail(malformed("array byte length %d is not a multiple of %d", n, width))
		}
		return 0
	}
	return n / width
}

// ReadArrayLengthFast is ReadArrayLength's fast path, which inlines into
// generated readers, for a width that is a power of two: a one-byte byte
// length that passes ReadArrayLength's checks is read and the element
// count returned. For anything else it reads nothing and returns -1, and
// the caller calls ReadArrayLength (BenchmarkDeserialize/Sample: seven
// arrays).
func (c *ReadContext) ReadArrayLengthFast(width int) int {
	n := c.r.ReadSmallByteLength(width, c.elems)
	if n > 0 {
		c.elems -= uint64(n)
		n /= width
	}
	return n
}

// ReadEnumFast is ReadEnum's fast path, which inlines into generated
// readers: a one-byte ordinal of at most max is read and returned. For
// anything else it reads nothing and returns -1, and the caller calls
// ReadEnum (BenchmarkDeserialize/MediaContentList: four enums an element).
func (c *ReadContext) ReadEnumFast(max uint32) int { return c.r.ReadSmallVarUint32(max) }

// ReadMapChunk reads a map chunk header (§8.4) for a map whose key and value
// type ids are keyID and valID, and returns the number of entries in the
// chunk (at most remaining) and whether the chunk's value is null. valType is
// the TypeInfo of struct values, nil for other values; valNullable says
// whether a Go value can be nil (pointers, slices, maps): a null value for
// any other is a schema mismatch, not a zero value.
//
// Every header a writer may choose is read: official Go declares key and
// value types (24, or 14 for a null value), while Java, Python and
// JavaScript may leave them undeclared and write the type info once after the
// chunk size (or, for a null-value entry, before its key). A struct value's
// type info is its full type meta, so ev is the field mapping when a peer's
// TypeDef differs from valType's. A null key is an error (Go maps have none);
// reference tracking is not supported.
func (c *ReadContext) ReadMapChunk(remaining int, keyID, valID byte, valType *TypeInfo, valNullable bool) (size int, valNull bool, ev *Evolution) {
	size, valNull, undeclared := c.readMapChunk(remaining, keyID)
	if !c.mapValueMeta(valNull, undeclared, valNullable, valID, valType, &ev) {
		return 0, false, nil
	}
	return size, valNull, ev
}

// mapValueMeta is the tail of a chunk header's read: a null value the Go
// value type cannot hold is a mismatch (false), and the value's type info
// follows when the chunk leaves it undeclared (ev, for a struct value).
func (c *ReadContext) mapValueMeta(valNull, undeclared, valNullable bool, valID byte, valType *TypeInfo, ev **Evolution) bool {
	if valNull && !valNullable && c.r.Err() == nil {
		c.r.Fail(mismatch("null map value where the Go value type cannot be nil"))
		return false
	}
	if undeclared {
		if valType != nil {
			*ev = c.ReadStructMeta(valType)
		} else {
			c.expectTypeID(valID)
		}
	}
	return true
}

// readMapChunk reads a chunk header, its size and the key's type info; it
// reports whether the value's type info, which the caller reads, follows.
func (c *ReadContext) readMapChunk(remaining int, keyID byte) (size int, valNull, valUndeclared bool) {
	h := c.r.ReadUint8()
	if c.r.Err() != nil {
		return 0, false, false
	}
	return c.readMapChunkAfter(h, remaining, keyID)
}

// ReadMapChunkNullKey is ReadMapChunk for a map whose Go key type can be
// nil (a pointer): a chunk may also hold one entry with a null key (header
// 0x22, its value follows) or a null key and a null value (0x12), as
// official Go and Java write them (docs/format.md §8.4).
func (c *ReadContext) ReadMapChunkNullKey(remaining int, keyID, valID byte, valType *TypeInfo, valNullable bool) (size int, keyNull, valNull bool, ev *Evolution) {
	h := c.r.ReadUint8()
	if c.r.Err() != nil {
		return 0, false, false, nil
	}
	size, keyNull = 1, h&^meta.MapChunkBits == 0 && h&(meta.MapKeyTrackRef|meta.MapValueTrackRef) == 0 && h&meta.MapKeyHasNull != 0
	var undeclared bool
	if keyNull {
		// One entry, no size byte: the value, unless it is null too.
		valNull = h&meta.MapValueHasNull != 0
		undeclared = !valNull && h&meta.MapValueDeclared == 0
	} else {
		size, valNull, undeclared = c.readMapChunkAfter(h, remaining, keyID)
	}
	if !c.mapValueMeta(valNull, undeclared, valNullable, valID, valType, &ev) {
		return 0, false, false, nil
	}
	return size, keyNull, valNull, ev
}

// readMapChunkAfter is readMapChunk once the chunk header h is read.
func (c *ReadContext) readMapChunkAfter(h byte, remaining int, keyID byte) (size int, valNull, valUndeclared bool) {
	switch {
	case h&^meta.MapChunkBits != 0:
		c.r.Fail(malformed("map chunk header 0x%02x has reserved bits set", h))
		return 0, false, false
	case h&(meta.MapKeyTrackRef|meta.MapValueTrackRef) != 0:
		c.r.Fail(&detail{sentinel: ErrUnsupported, msg: fmt.Sprintf("reference-tracked map entries (chunk header 0x%02x)", h)})
		return 0, false, false
	case h&meta.MapKeyHasNull != 0:
		c.r.Fail(mismatch("a null map key (a peer with nullable keys wrote it) where the Go key type cannot be nil"))
		return 0, false, false
	}
	if h&meta.MapValueHasNull != 0 {
		// One entry, no size byte: the key, with its type info when it is
		// not declared.
		if h&meta.MapKeyDeclared == 0 {
			c.expectTypeID(keyID)
		}
		return 1, true, false
	}
	size = int(c.r.ReadUint8())
	if (size == 0 || size > remaining) && c.r.Err() == nil {
		c.r.Fail(malformed("map chunk of %d entries with %d entries left", size, remaining))
		return 0, false, false
	}
	if h&meta.MapKeyDeclared == 0 {
		c.expectTypeID(keyID)
	}
	return size, false, h&meta.MapValueDeclared == 0 && c.r.Err() == nil
}

func (c *ReadContext) expectTypeID(want byte) {
	id := c.r.ReadUint8()
	if c.r.Err() != nil {
		return
	}
	if id != want {
		c.r.Fail(mismatch("map entry type id %d, want %d", id, want))
		return
	}
	switch id {
	case meta.TypeEnum, meta.TypeExt:
		c.r.ReadVarUint32() // the user id; the field type decides
	case meta.TypeNamedExt:
		c.r.Fail(&detail{sentinel: ErrUnsupported, msg: "a map chunk that does not declare its named extension values (official Go declares them)"})
	}
}

// typeDefNesting is how deeply a TypeDef's field types nest: 1 for a
// scalar field, 2 for a list of scalars, and so on.
func typeDefNesting(td *meta.TypeDef) int {
	deepest := 0
	for i := range td.Fields {
		if d := fieldTypeNesting(&td.Fields[i].Type); d > deepest {
			deepest = d
		}
	}
	return deepest
}

func fieldTypeNesting(ft *meta.FieldType) int {
	deepest := 0
	for i := range ft.Children {
		if d := fieldTypeNesting(&ft.Children[i]); d > deepest {
			deepest = d
		}
	}
	return deepest + 1
}
