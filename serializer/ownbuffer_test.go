package serializer_test

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/forygen/forygen/internal/example"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// Concurrent callers of one Fory, one at a time on its own buffer and the
// rest on the pool's, all write the right bytes (.ci/run runs the tests
// with -race), and the Fory serves the next call after them.
func TestOwnBufferConcurrent(t *testing.T) {
	f := serializer.New()
	u := example.User{ID: 42, Name: "Ada", Tags: []string{"admin"}}
	want, err := f.Serialize(&u)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out []byte
			for i := 0; i < 200; i++ {
				var err error
				if out, err = f.SerializeAppend(out[:0], &u); err != nil {
					errs <- err
					return
				}
				got, err := f.Serialize(&u)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(out, want) || !bytes.Equal(got, want) {
					errs <- errors.New("a concurrent write gave other bytes")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	out, err := f.SerializeAppend(nil, &u)
	require.NoError(t, err)
	require.Equal(t, want, out)
}
