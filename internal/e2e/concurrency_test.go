package e2e_test

import (
	"bytes"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e/narrow"
	"github.com/forygen/forygen/serializer"
)

// Both tests are meant for `go test -race` (issue 6, item 7).

const goroutines = 16

// TestConcurrentSerializeShared: many goroutines serialize one shared
// value (read-only) at once, with the package function, a shared Fory and
// SerializeTo into their own buffers; every output is the same bytes.
func TestConcurrentSerializeShared(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			v := deterministic(r)
			want, err := f.Serialize(v)
			require.NoError(t, err)
			var wg sync.WaitGroup
			errs := make(chan error, goroutines)
			outs := make([][]byte, goroutines)
			for g := 0; g < goroutines; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					var b []byte
					for i := 0; i < 20; i++ {
						var err error
						if b, err = f.SerializeAppend(b[:0], v); err != nil {
							errs <- err
							return
						}
						out, err := f.Serialize(v)
						if err != nil {
							errs <- err
							return
						}
						if !bytes.Equal(out, b) {
							errs <- errMismatch
							return
						}
					}
					outs[g] = append([]byte(nil), b...)
				}(g)
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err, "%s/%s", m.name, r.name)
			}
			for _, out := range outs {
				require.Equal(t, want, out, "%s/%s", m.name, r.name)
			}
		}
	}
}

var errMismatch = errors.New("SerializeTo and Serialize wrote different bytes")

// TestConcurrentOneFory: one Fory per mode is used from many goroutines
// for everything at once: serializing and deserializing every root type,
// schema-evolution reads (narrow types, through the shared TypeDef and
// field-mapping caches), and hostile inputs that fail.
func TestConcurrentOneFory(t *testing.T) {
	type job struct {
		f     *serializer.Fory
		v     any
		fresh func() any
		data  []byte
		bad   []byte
	}
	var jobs []job
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			v := r.value()
			data, err := f.Serialize(v)
			require.NoError(t, err)
			jobs = append(jobs, job{f, v, r.fresh, data, data[:len(data)/2]})
		}
		if m.compatible {
			data, err := f.Serialize(fullScalars())
			require.NoError(t, err)
			want := &narrow.Scalars{B: true, Tagd: 77}
			jobs = append(jobs, job{f, want, func() any { return new(narrow.Scalars) }, data, data[:len(data)-1]})
			data, err = f.Serialize(chain(8))
			require.NoError(t, err)
			jobs = append(jobs, job{f, &narrow.Node{Value: 1}, func() any { return new(narrow.Node) }, data, append(data, 0)})
		}
	}
	var wg sync.WaitGroup
	fails := make(chan string, goroutines*len(jobs))
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 3*len(jobs); i++ {
				j := jobs[(g+i)%len(jobs)]
				got := j.fresh()
				if err := j.f.Deserialize(j.data, got); err != nil || !reflect.DeepEqual(j.v, got) {
					fails <- "decode differs"
					return
				}
				if err := j.f.Deserialize(j.bad, j.fresh()); err == nil {
					fails <- "hostile input decoded"
					return
				}
				if _, err := j.f.Serialize(got); err != nil {
					fails <- err.Error()
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(fails)
	for f := range fails {
		t.Error(f)
	}
}
