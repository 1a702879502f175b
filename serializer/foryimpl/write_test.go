package foryimpl

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// namedType is a by-name struct type for the meta-table tests.
func namedType(t *testing.T, name string) *TypeInfo {
	t.Helper()
	ns := meta.EncodeMetaString("t", meta.Namespace)
	tn := meta.EncodeMetaString(name, meta.TypeName)
	cm := meta.AppendInlineMetaString(meta.AppendInlineMetaString([]byte{meta.TypeNamedStruct}, ns), tn)
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedCompatibleStruct, Compatible: true, ByName: true,
		Namespace: "t", TypeName: name, Fields: probeFields})
	return NewStructType(StructSpec{GoName: "t." + name, ByName: true, Namespace: "t", TypeName: name, SchemaHash: 1,
		ConsistentMeta: cm, TypeDef: td,
		RootConsistent: append([]byte{meta.HeaderXlang, FlagNotNull}, cm...),
		RootCompatible: append([]byte{meta.HeaderXlang, FlagNotNull, meta.TypeNamedCompatibleStruct, 0}, td...)})
}

// The root's type meta is entry 0 of the message's tables (the generated
// root prefix defines it): a nested value of the root's type refers back to
// it, and other types are numbered after it (docs/format.md §6.3, §11.3).
func TestRootIsTableEntryZero(t *testing.T) {
	root, other := namedType(t, "Root"), namedType(t, "Other")

	b := buffer.New(64)
	c := newRuntime(func(c *Config) { c.Compatible = false }).BeginWrite(b, root)
	c.writeConsistentMeta(root, root)   // back-reference to names 0 and 1
	c.writeConsistentMeta(other, other) // new: inline names, entry 1
	n := b.Len()
	c.writeConsistentMeta(other, other) // back-reference to names 2 and 3
	c.writeConsistentMeta(root, root)
	got := hex.EncodeToString(b.Bytes())
	assert.Equal(t, "1d0305"+hex.EncodeToString(other.ConsistentMeta)+"1d0709"+"1d0305", got)
	assert.Equal(t, 3+len(other.ConsistentMeta), n)

	b.Reset()
	c = newRuntime().BeginWrite(b, root)
	c.WriteStructMeta(root)     // index 0, seen
	c.WriteStructMeta(other)    // index 1, new, with its TypeDef
	c.WriteStructMetaPtr(other) // []*Other has an entry of its own: index 2, new
	c.WriteStructMeta(other)    // index 1, seen
	want := "1e01" + "1e02" + hex.EncodeToString(other.TypeDef) + "1e04" + hex.EncodeToString(other.TypeDef) + "1e03"
	require.Equal(t, want, hex.EncodeToString(b.Bytes()))
	require.NoError(t, c.EndWrite(0))
}

// A write context is set up again for another Fory or another buffer, and a
// recorded error is returned once, with what was written dropped.
func TestWriteContextReuse(t *testing.T) {
	b := buffer.New(64)
	same, other := newRuntime(), newRuntime(func(c *Config) { c.Compatible = false })
	c := same.BeginWrite(b, probeType)
	assert.True(t, c.Compatible())
	assert.Same(t, c, same.BeginWrite(b, probeType))
	assert.False(t, other.BeginWrite(b, probeType).Compatible())

	c = same.BeginWrite(b, probeType)
	b.WriteUint8(1)
	c.Fail(ErrLimit)
	require.ErrorIs(t, c.EndWrite(0), ErrLimit)
	assert.Equal(t, 0, b.Len())
	c = same.BeginWrite(b, probeType)
	require.NoError(t, c.EndWrite(0))
}
