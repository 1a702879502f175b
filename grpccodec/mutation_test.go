//go:build !race

package grpccodec_test

// Built without -race only: the test races on purpose, a goroutine rewriting
// a message while the codec marshals it, which is exactly what the race
// detector (rightly) reports.

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/grpccodec"
	"github.com/forygen/forygen/grpccodec/internal/testmsg"
	"github.com/forygen/forygen/serializer"
)

// TestMutationWhileMarshaling breaks the documented contract (a message must
// not be modified while it is being sent) and checks what the codec promises
// anyway: no panic and no malformed frame, only an error or a message that
// decodes. The writer changes slice and string lengths over shared backing
// arrays, and list elements in place, so a racing read sees a shorter or
// longer view of the same data and every consistent frame decodes to
// prefixes of it.
func TestMutationWhileMarshaling(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(1) })
	}
	c := grpccodec.New(serializer.New())
	long := strings.Repeat("racing title ", 40)
	base := testmsg.NewMediaContent().Images
	var imgs []testmsg.Image
	for i := 0; i < 8; i++ {
		imgs = append(imgs, base[i%len(base)])
	}
	// The elements of persons are rewritten in place too: the list's
	// strings are sized in one pass and written in the next.
	persons := make([]string, 5)
	for i := range persons {
		persons[i] = long[:i+1]
	}

	m := testmsg.NewMediaContent()
	m.Media.Title = long[:1]
	m.Images = imgs[:1]
	m.Media.Persons = persons[:1]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m.Media.Title = long[:i%len(long)]
			m.Images = imgs[:i%(len(imgs)+1)]
			m.Media.Persons = persons[:i%(len(persons)+1)]
			persons[i%len(persons)] = long[:(i*31)%len(long)]
			m.Media.Width = int32(i)
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	var sent, failed int
	deadline := time.Now().Add(300 * time.Millisecond)
	for n := 0; n < 50000 && time.Now().Before(deadline); n++ {
		out, err := c.Marshal(m)
		if err != nil {
			failed++
			continue
		}
		sent++
		var got testmsg.MediaContent
		err = c.Unmarshal(out, &got)
		out.Free()
		require.NoError(t, err, "marshal %d produced a malformed message", n)
		require.True(t, strings.HasPrefix(long, got.Media.Title), "title %q", got.Media.Title)
		require.LessOrEqual(t, len(got.Images), len(imgs))
		require.True(t, slices.Equal(imgs[:len(got.Images)], got.Images), "images %+v", got.Images)
		require.LessOrEqual(t, len(got.Media.Persons), len(persons))
		for _, p := range got.Media.Persons {
			require.True(t, strings.HasPrefix(long, p), "person %q", p)
		}
	}
	t.Logf("%d marshaled, %d errors", sent, failed)
	require.Positive(t, sent)
}

// TestMutationOfDenseArrays does the same for Sample's dense arrays (a byte
// length followed by raw elements, docs/format.md §8.2) and its string.
func TestMutationOfDenseArrays(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(1) })
	}
	c := grpccodec.New(serializer.New(serializer.WithCompatible(false)))
	ints := make([]int32, 300)
	bools := make([]bool, 300)
	for i := range ints {
		ints[i] = int32(i * 7919)
		bools[i] = i%3 == 0
	}
	long := strings.Repeat("0123456789", 30)
	m := testmsg.NewSample()
	m.IntArray, m.BooleanArray, m.String = ints[:1], bools[:1], long[:1]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m.IntArray = ints[:i%len(ints)]
			m.BooleanArray = bools[:(i*7)%len(bools)]
			m.String = long[:(i*13)%len(long)]
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	var sent int
	deadline := time.Now().Add(300 * time.Millisecond)
	for n := 0; n < 50000 && time.Now().Before(deadline); n++ {
		out, err := c.Marshal(m)
		if err != nil {
			continue
		}
		sent++
		var got testmsg.Sample
		err = c.Unmarshal(out, &got)
		out.Free()
		require.NoError(t, err, "marshal %d produced a malformed message", n)
		require.Equal(t, ints[:len(got.IntArray)], got.IntArray)
		require.Equal(t, bools[:len(got.BooleanArray)], got.BooleanArray)
		require.True(t, strings.HasPrefix(long, got.String), "string %q", got.String)
	}
	t.Logf("%d marshaled", sent)
	require.Positive(t, sent)
}
