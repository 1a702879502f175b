package foryimpl

import (
	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// The entry points of a message with reference tracking (docs/format.md
// §2.1), one for every generated struct: the root flag is 0x00 and the
// root is object 0. Generated ForySerializeTo and ForyDeserialize keep the
// untracked path, with the root prefix as constant words, and call these
// for the tracked one, which copies and compares the runtime's copy of the
// tracking prefix (TypeInfo.rootRef…).

// withRefFlag is the root prefix p with root flag 0x00.
func withRefFlag(p []byte) []byte {
	q := append([]byte(nil), p...)
	q[1] = meta.FlagRefValue
	return q
}

// SerializeRef appends a message whose root is x, of type t, with
// reference tracking to b.
func SerializeRef[T any, P interface {
	*T
	Message
}](f *Runtime, b *buffer.Buffer, t *TypeInfo, x P) error {
	c := f.BeginWrite(b, t)
	start := b.WriterIndex()
	if c.Compatible() {
		b.WriteBytes(t.rootRefCompatible)
	} else {
		b.WriteBytes(t.rootRefConsistent)
	}
	WriteRootRef(c, (*T)(x))
	x.ForyWrite(c)
	return c.EndWrite(start)
}

// DeserializeRef reads a message written with reference tracking, whose
// bytes from the root prefix on are in, into x of type t: the generated
// fast path for the prefix SerializeRef writes, ReadRoot for any other.
func DeserializeRef(f *Runtime, c *ReadContext, in []byte, t *TypeInfo, x Message) error {
	p := t.rootRefConsistent
	if c.Compatible() {
		p = t.rootRefCompatible
	}
	if len(in) < len(p) || string(in[:len(p)]) != string(p) {
		return f.ReadRoot(c, x)
	}
	AcceptRootRef(c, len(p), t, x)
	x.ForyRead(c)
	return f.EndRead(c, t)
}
