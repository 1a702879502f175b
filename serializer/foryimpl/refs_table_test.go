package foryimpl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// addRefs gives the next reference ids to es, as ReadRefFlag and SetRef do.
func (c *ReadContext) addRefs(es ...refEntry) {
	for _, e := range es {
		c.newRef()
		c.setRef(c.refs.n-1, e)
	}
}

// The read table holds every entry recorded, across chunks, and charges
// what it allocates: the memory it holds plus the first chunk's outgrown
// copies, never a copy of the whole table; ids given to objects that are
// never recorded take nothing (issue 25 item 2).
func TestReadRefsChunks(t *testing.T) {
	f := testRuntime(false, true)
	c := f.beginFragment(make([]byte, 1<<14))
	budget := c.budget
	const n = 5*refChunk + 3
	for i := 0; i < n; i++ {
		c.newRef()
		c.setRef(i, refEntry{n: i})
	}
	require.Equal(t, n, c.refs.len())
	for i := 0; i < n; i++ {
		require.Equal(t, i, c.refs.get(i).n)
	}
	held := uint64(6*refChunk) * refEntrySize
	charged := budget - c.budget
	require.GreaterOrEqual(t, charged, held)
	require.LessOrEqual(t, charged, held+uint64(2*refChunk)*refEntrySize, "charged %d for %d entries", charged, n)

	// Reset keeps the first chunk, empty, and drops the others.
	c.refs.reset()
	require.Zero(t, c.refs.len())
	require.Len(t, c.refs.chunks, 1)
	require.Len(t, c.refs.chunks[0], refChunk)
	require.Equal(t, make([]refEntry, refChunk), c.refs.chunks[0])

	// A million ids without entries allocate nothing; one entry at the
	// end allocates its own chunk and the chunk list.
	c = f.beginFragment(make([]byte, 1<<14))
	budget = c.budget
	for range 1 << 20 {
		c.newRef()
	}
	require.Equal(t, budget, c.budget)
	require.Zero(t, c.refs.get(1<<20-1))
	c.setRef(1<<20-1, refEntry{n: 7})
	require.Equal(t, 7, c.refs.get(1<<20-1).n)
	require.Zero(t, c.refs.get(1<<20-2))
	require.Less(t, budget-c.budget, uint64(refChunk)*refEntrySize+64<<10)
	require.NoError(t, c.r.Err())
}

// Reset leaves no entry behind whatever the message recorded: one or two
// entries (zeroed by stores), more (clear), and ids given without an entry.
// A stale entry would let the next message's back-reference to an id it
// gave but never recorded resolve to the previous message's object.
func TestReadRefsResetSmall(t *testing.T) {
	f := testRuntime(false, true)
	x := new(int)
	for _, n := range []int{1, 2, 3, 9} {
		c := f.beginFragment(make([]byte, 64))
		for i := 0; i < n; i++ {
			c.addRefs(refEntry{v: x, p: unsafe.Pointer(x), n: i + 1})
		}
		c.newRef() // an id without an entry
		c.refs.reset()
		require.Zero(t, c.refs.len())
		require.Equal(t, make([]refEntry, len(c.refs.first)), c.refs.first, "%d entries", n)
		c.release()
	}
}

// With the budget spent, recording fails with ErrLimit rather than grow
// the table.
func TestReadRefsBudget(t *testing.T) {
	f := testRuntime(false, true)
	c := f.beginFragment(make([]byte, 1))
	for i := 0; c.r.Err() == nil; i++ {
		require.Less(t, i, 1<<20)
		c.newRef()
		c.setRef(i, refEntry{n: 1})
	}
	_, err := classify(c.r.Err())
	require.ErrorIs(t, err, ErrLimit)
}

// The write table gives every new object the next id and every object
// seen before its first id, within one message: in the first table, across
// growth, across slot collisions (keys that differ only in length probe
// neighbouring slots), and after resets that move to a new generation.
func TestWriteRefTable(t *testing.T) {
	var tab refTable
	base := make([]int64, 64)
	for msg, n := range []int{3, 8, refFirstSlots / 2, refFirstSlots/2 + 1, 40, 2, 300, 0, 9} {
		tab.reset()
		ids := map[refKey]int{}
		for i := 0; i < 3*n; i++ {
			// Keys repeat (i%n) and differ only in length, pointer or both.
			j := i % max(n, 1)
			k := refKey{unsafe.Pointer(&base[j%64]), j / 64}
			want, seen := ids[k]
			if !seen {
				want = len(ids)
				ids[k] = want
			}
			var id int
			var got bool
			if i%2 == 0 {
				id, got = tab.lookup(k)
			} else if hash := k.hash(); tab.recordNew(k, hash) {
				id, got = tab.n-1, false
			} else {
				id, got = tab.find(k, hash)
			}
			require.Equal(t, seen, got, "message %d, key %d", msg, i)
			require.Equal(t, want, id, "message %d, key %d", msg, i)
		}
		require.Equal(t, len(ids), tab.n, "message %d", msg)
	}
}
