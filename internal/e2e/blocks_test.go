package e2e_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/serializer"
)

// WithBlockAlloc (serializer/foryimpl/blocks.go): values carved from
// shared blocks decode to what separate allocations decode to, stay what
// they were while later messages are decoded, and do not reach into each
// other's memory.

// blockModes pair each wire mode with and without blocks; 64-byte blocks
// make most messages span several, and put values larger than 16 bytes
// on their own.
func blockModes(compatible bool) (plain, blocks *serializer.Fory) {
	return serializer.New(serializer.WithCompatible(compatible)),
		serializer.New(serializer.WithCompatible(compatible), serializer.WithBlockAlloc(64))
}

// TestBlockAllocDecodes decodes every root several times into new values
// with blocks, keeps them all, and checks each against a decode without
// blocks once all are decoded: a region handed out twice would change an
// earlier value.
func TestBlockAllocDecodes(t *testing.T) {
	for _, m := range modes {
		plain, blocks := blockModes(m.compatible)
		for _, r := range roots() {
			t.Run(m.name+"/"+r.name, func(t *testing.T) {
				data, err := plain.Serialize(r.value())
				if err != nil {
					t.Fatal(err)
				}
				want := r.fresh()
				if err := plain.Deserialize(data, want); err != nil {
					t.Fatal(err)
				}
				var kept []any
				for range 8 {
					v := r.fresh()
					if err := blocks.Deserialize(data, v); err != nil {
						t.Fatal(err)
					}
					checkCutToLength(t, reflect.ValueOf(v), r.name)
					kept = append(kept, v)
				}
				for i, v := range kept {
					if !reflect.DeepEqual(v, want) {
						t.Fatalf("decode %d of 8 with blocks:\n%#v\nwithout:\n%#v", i, v, want)
					}
				}
			})
		}
	}
}

// checkCutToLength fails when a slice of scalars below v has spare
// capacity: appending to it would write into the next value's region.
func checkCutToLength(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkCutToLength(t, v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				checkCutToLength(t, v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	case reflect.Slice:
		switch v.Type().Elem().Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			if v.Cap() != v.Len() {
				t.Errorf("%s: a slice of %d elements has capacity %d", path, v.Len(), v.Cap())
			}
			return
		}
		for i := range v.Len() {
			checkCutToLength(t, v.Index(i), path)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			checkCutToLength(t, it.Value(), path)
		}
	}
}

// TestBlockAllocNeighbours writes to and appends to one decoded slice and
// checks that the slices carved next to it, and a second message's, are
// untouched.
func TestBlockAllocNeighbours(t *testing.T) {
	plain, blocks := blockModes(true)
	data, err := plain.Serialize(fullContainers())
	if err != nil {
		t.Fatal(err)
	}
	var a, b, want e2e.Containers
	for _, v := range []*e2e.Containers{&a, &b} {
		if err := blocks.Deserialize(data, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := plain.Deserialize(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(a.I32s) == 0 || len(a.Bytes) == 0 || len(a.DI32) == 0 {
		t.Fatal("fullContainers has no ints or bytes: the test checks nothing")
	}
	for i := range a.DI32 {
		a.DI32[i] = -1
	}
	for i := range a.I32s {
		a.I32s[i] = -1
	}
	for i := range a.Bytes {
		a.Bytes[i] = 0xee
	}
	grown := append(a.I32s, 7, 8, 9)
	grown[0] = 42
	a = e2e.Containers{}
	if err := blocks.Deserialize(data, &a); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]*e2e.Containers{"the other message": &b, "a new decode": &a} {
		if !reflect.DeepEqual(*v, want) {
			t.Errorf("%s changed with writes to a neighbour:\n%#v\nwant\n%#v", name, *v, want)
		}
	}
}

// TestBlockAllocAllocations: the point of the option, fewer allocations
// in a fresh decode of a value with many slices of scalars and strings.
func TestBlockAllocAllocations(t *testing.T) {
	plain := serializer.New()
	blocks := serializer.New(serializer.WithBlockAlloc(8 << 10))
	data, err := plain.Serialize(fullContainers())
	if err != nil {
		t.Fatal(err)
	}
	count := func(f *serializer.Fory) float64 {
		return testing.AllocsPerRun(50, func() {
			var v e2e.Containers
			if err := f.Deserialize(data, &v); err != nil {
				t.Fatal(err)
			}
		})
	}
	without, with := count(plain), count(blocks)
	t.Logf("allocations a fresh decode of Containers: %.0f without blocks, %.0f with", without, with)
	if with >= without {
		t.Fatalf("WithBlockAlloc: %.0f allocations, not fewer than %.0f without", with, without)
	}
}

// TestBlockAllocOptions: a negative size is a programming error.
func TestBlockAllocOptions(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("WithBlockAlloc(-1) did not panic")
		}
	}()
	serializer.WithBlockAlloc(-1)
}

// TestBlockAllocConcurrent: goroutines decoding with one Fory take their
// own read contexts, so their blocks; under -race this finds a block
// shared between two of them.
func TestBlockAllocConcurrent(t *testing.T) {
	plain, blocks := blockModes(true)
	data, err := plain.Serialize(fullContainers())
	if err != nil {
		t.Fatal(err)
	}
	var want e2e.Containers
	if err := plain.Deserialize(data, &want); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var got []*e2e.Containers
			for range 50 {
				v := new(e2e.Containers)
				if err := blocks.Deserialize(data, v); err != nil {
					errs <- err
					return
				}
				got = append(got, v)
			}
			for _, v := range got {
				if !reflect.DeepEqual(*v, want) {
					errs <- fmt.Errorf("a concurrent decode with blocks differs:\n%#v", *v)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
