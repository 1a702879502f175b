package e2e_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/internal/e2e/narrow"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// sameChain returns a Node list of n nodes that all hold the value 7, so
// that every level encodes to the same bytes.
func sameChain(n int) *e2e.Node {
	root := &e2e.Node{Value: 7}
	cur := root
	for i := 1; i < n; i++ {
		cur.Next = &e2e.Node{Value: 7}
		cur = cur.Next
	}
	return root
}

// nodeChain builds the encoding of a Node list of n nodes (n ≥ 1) by
// repeating one level's bytes, so it can be far deeper than any writer
// would go: message = prefix, n−1 times the level, then the last node.
func nodeChain(t testing.TB, compatible bool, n int) []byte {
	w := serializer.New(serializer.WithCompatible(compatible), serializer.WithMaxDepth(10))
	one, err := w.Serialize(sameChain(1))
	require.NoError(t, err)
	two, err := w.Serialize(sameChain(2))
	require.NoError(t, err)
	three, err := w.Serialize(sameChain(3))
	require.NoError(t, err)
	// The last node's body: [hash] 0e fd (value 7, Next null), docs/format.md §9.
	last := 2
	if !compatible {
		last += 4
	}
	prefix := one[:len(one)-last]
	level := two[len(prefix) : len(two)-last]
	require.Equal(t, three, bytes.Join([][]byte{prefix, level, level, one[len(prefix):]}, nil), "the level bytes do not repeat")
	out := make([]byte, 0, len(prefix)+(n-1)*len(level)+last)
	out = append(out, prefix...)
	for i := 1; i < n; i++ {
		out = append(out, level...)
	}
	return append(out, one[len(prefix):]...)
}

// depthOf returns the number of Nodes in the list v.
func depthOf(v *e2e.Node) int {
	n := 0
	for ; v != nil; v = v.Next {
		n++
	}
	return n
}

// TestDepthNode: with WithMaxDepth(D) a Node list D deep decodes and D+1
// deep fails with ErrLimit, for several D and the default 20, in both
// modes; the bytes from the repeated-level builder equal the writer's.
// TestCycleOnWrite: without reference tracking, a value that contains
// itself is refused at once as a cycle, not as data nested too deep.
func TestCycleOnWrite(t *testing.T) {
	loop := &e2e.Node{Value: 1}
	loop.Next = &e2e.Node{Value: 2, Next: loop}
	for _, m := range modes {
		_, err := serializer.New(serializer.WithCompatible(m.compatible)).Serialize(loop)
		require.ErrorIs(t, err, serializer.ErrInvalidValue, m.name)
		require.False(t, errors.Is(err, serializer.ErrLimit), m.name)
		var ee *serializer.EncodeError
		require.True(t, errors.As(err, &ee), m.name)
		require.Contains(t, err.Error(), "a cycle")
		require.Contains(t, err.Error(), "WithTrackRef")
	}
}

func TestDepthNode(t *testing.T) {
	for _, m := range modes {
		for _, d := range []int{1, 2, 5, 20, 64} {
			opts := []serializer.Option{serializer.WithCompatible(m.compatible)}
			if d != 20 {
				opts = append(opts, serializer.WithMaxDepth(d))
			}
			f := serializer.New(opts...)
			// The writer is bounded the same way: it writes D levels and
			// refuses D+1 (cyclic data would otherwise never end).
			ok, err := f.Serialize(sameChain(d))
			require.NoError(t, err)
			require.Equal(t, nodeChain(t, m.compatible, d), ok)
			_, err = f.Serialize(sameChain(d + 1))
			require.ErrorIs(t, err, serializer.ErrLimit)
			require.NotContains(t, err.Error(), "decode")
			require.Contains(t, err.Error(), "(encode limit exceeded)")

			got := new(e2e.Node)
			require.NoError(t, f.Deserialize(ok, got), "%s depth %d", m.name, d)
			require.Equal(t, d, depthOf(got))

			deep := nodeChain(t, m.compatible, d+1)
			err = f.Deserialize(deep, new(e2e.Node))
			require.ErrorIs(t, err, serializer.ErrLimit, "%s depth %d+1", m.name, d)
			de, _ := hostile.CheckError(t, err, deep, "e2e.Node")
			// The path names the d Next fields walked to the failing node.
			require.Equal(t, d, bytes.Count([]byte(de.Path), []byte("Next")), de.Path)
		}
	}
}

// treeLevels encodes a Tree whose Children nest levels deep (one child per
// level) or, with viaIndex, whose Index values nest.
func treeLevels(levels int, viaIndex bool) *e2e.Tree {
	root := &e2e.Tree{Name: "0"}
	cur := root
	for i := 1; i < levels; i++ {
		next := &e2e.Tree{Name: "n"}
		if viaIndex {
			cur.Index = map[string]*e2e.Tree{"k": next}
		} else {
			cur.Children = []*e2e.Tree{next}
		}
		cur = next
	}
	return root
}

// TestDepthTree is TestDepthNode for recursion through a list of pointers
// and through map values.
func TestDepthTree(t *testing.T) {
	w := func(compatible bool) *serializer.Fory {
		return serializer.New(serializer.WithCompatible(compatible), serializer.WithMaxDepth(100))
	}
	for _, m := range modes {
		for _, viaIndex := range []bool{false, true} {
			for _, d := range []int{3, 20} {
				f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithMaxDepth(d))
				ok, err := w(m.compatible).Serialize(treeLevels(d, viaIndex))
				require.NoError(t, err)
				require.NoError(t, f.Deserialize(ok, new(e2e.Tree)))
				deep, err := w(m.compatible).Serialize(treeLevels(d+1, viaIndex))
				require.NoError(t, err)
				err = f.Deserialize(deep, new(e2e.Tree))
				require.ErrorIs(t, err, serializer.ErrLimit, "%s index=%v depth %d+1", m.name, viaIndex, d)
				hostile.CheckError(t, err, deep, "e2e.Tree")
			}
		}
	}
}

// TestDepthSkip: in compatible mode narrow.Node skips e2e.Node's Next
// field, and the skip path walks the rest of the list without generated
// code: WithMaxDepth(D) bounds the struct levels below the skipped field,
// D passes and D+1 fails with ErrLimit.
func TestDepthSkip(t *testing.T) {
	for _, d := range []int{1, 4, 20} {
		f := serializer.New(serializer.WithMaxDepth(d))
		// The root, then d skipped levels.
		ok := nodeChain(t, true, d+1)
		got := new(narrow.Node)
		before := foryimpl.EvolvedReadCount()
		require.NoError(t, f.Deserialize(ok, got), "skip depth %d", d)
		require.Equal(t, narrow.Node{Value: 7}, *got)
		require.Greater(t, foryimpl.EvolvedReadCount(), before, "the narrow read took the fast path")
		deep := nodeChain(t, true, d+2)
		err := f.Deserialize(deep, new(narrow.Node))
		require.ErrorIs(t, err, serializer.ErrLimit, "skip depth %d+1", d)
		hostile.CheckError(t, err, deep, "narrow.Node")
	}
}

// nestedListTree returns a compatible-mode Tree message whose TypeDef has
// an extra (skipped) field of levels nested list types around int32, with
// an empty list as its value.
func nestedListTree(t testing.TB, levels int) []byte {
	local := treeDef(t)
	td := &meta.TypeDef{Kind: local.Kind, UserID: local.UserID, Compatible: true}
	ft := meta.FieldType{TypeID: 4} // INT32
	for i := 1; i < levels; i++ {
		ft = meta.FieldType{TypeID: 22, Children: []meta.FieldType{ft}}
	}
	td.Fields = []meta.FieldDef{{Name: "deep", TagID: -1, Type: ft}}
	// Root: header, flag, COMPATIBLE_STRUCT, new TypeDef #0, then the body:
	// one field, an empty list (or an int32 0 when levels is 1).
	return bytes.Join([][]byte{{0x01, 0xff, 0x1c, 0x00}, meta.EncodeTypeDef(td), {0x00}}, nil)
}

// TestDepthTypeDef: a received TypeDef whose field types nest deeper than
// WithMaxDepth is refused with ErrLimit before any value is read.
func TestDepthTypeDef(t *testing.T) {
	for _, d := range []int{2, 5, 12} {
		f := serializer.New(serializer.WithMaxDepth(d))
		ok := nestedListTree(t, d)
		require.NoError(t, f.Deserialize(ok, new(e2e.Tree)), "TypeDef nesting %d", d)
		deep := nestedListTree(t, d+1)
		err := f.Deserialize(deep, new(e2e.Tree))
		require.ErrorIs(t, err, serializer.ErrLimit, "TypeDef nesting %d+1", d)
		hostile.CheckError(t, err, deep, "e2e.Tree")
	}
	// Deeper than meta.MaxTypeNesting the TypeDef parser refuses whatever
	// WithMaxDepth allows (internal/meta's hostile tests).
}

// TestDepthMillion: a Node list a million levels deep (in both modes), and
// a Tree whose Children lists nest a million times, fail with ErrLimit
// quickly and without growing the stack.
func TestDepthMillion(t *testing.T) {
	const n = 1_000_000
	treeLevel := []byte{0x01, 0x08, 0x1c, 0x01}
	for _, m := range modes {
		in := nodeChain(t, m.compatible, n)
		for _, target := range []struct {
			name  string
			fresh func() any
		}{{"e2e.Node", func() any { return new(e2e.Node) }}, {"narrow.Node", func() any { return new(narrow.Node) }}} {
			if target.name == "narrow.Node" && !m.compatible {
				continue // same-schema mode has no skip path
			}
			f := serializer.New(serializer.WithCompatible(m.compatible))
			start := time.Now()
			err := f.Deserialize(in, target.fresh())
			took := time.Since(start)
			require.ErrorIs(t, err, serializer.ErrLimit)
			hostile.CheckError(t, err, in, target.name)
			t.Logf("%s, %d-byte input %d deep into %s: %v after %v", m.name, len(in), n, target.name, errors.Unwrap(err), took)
			require.Less(t, took, 100*time.Millisecond)
		}
	}
	// Tree, compatible mode: the root meta, then a million times "one
	// child, no nulls, TypeDef #0".
	empty, err := serializer.Serialize(&e2e.Tree{})
	require.NoError(t, err)
	in := append([]byte{}, empty[:len(empty)-3]...)
	in = append(in, bytes.Repeat(treeLevel, n)...)
	start := time.Now()
	err = serializer.Deserialize(in, new(e2e.Tree))
	took := time.Since(start)
	require.ErrorIs(t, err, serializer.ErrLimit)
	hostile.CheckError(t, err, in, "e2e.Tree")
	t.Logf("compatible Tree %d lists deep: %v", n, took)
	require.Less(t, took, 100*time.Millisecond)
}
