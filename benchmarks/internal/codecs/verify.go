package codecs

import (
	"bytes"
	"fmt"
	"reflect"
)

// Verify checks the named codecs on fixture f before anything is measured:
//
//   - each codec's round trip gives back the fixture value, twice in a row
//     through the same reused buffer and target (so buffer and target reuse
//     cannot leak state from one call into the next);
//   - encoding twice gives identical bytes;
//   - decoding into a new value (UnmarshalFresh), twice, gives it back too;
//   - every codec's decoded value equals every other's (in particular,
//     decoding forygen bytes equals converting the protobuf-decoded message);
//   - with forygen among names, the fixture's evolved reader (if it has
//     one) decodes forygen's bytes into f.EvolvedValue(), through its reused
//     target and into new values (VerifyEvolved).
//
// It returns each codec's encoded size.
func Verify(f Fixture, names []string) (map[string]int, error) {
	want := f.Value()
	sizes := map[string]int{}
	for _, name := range names {
		c, err := f.New(name)
		if err != nil {
			return nil, err
		}
		first, err := c.Marshal()
		if err != nil {
			return nil, fmt.Errorf("%s/%s: marshal: %w", f.Name, name, err)
		}
		first = bytes.Clone(first)
		for i := 0; i < 2; i++ {
			data, err := c.Marshal()
			if err != nil {
				return nil, fmt.Errorf("%s/%s: marshal #%d: %w", f.Name, name, i+2, err)
			}
			if !bytes.Equal(data, first) {
				return nil, fmt.Errorf("%s/%s: marshal #%d gave different bytes (%d vs %d bytes)", f.Name, name, i+2, len(data), len(first))
			}
			if err := c.Unmarshal(data); err != nil {
				return nil, fmt.Errorf("%s/%s: unmarshal #%d: %w", f.Name, name, i+1, err)
			}
			if got := c.Decoded(); !reflect.DeepEqual(got, want) {
				return nil, fmt.Errorf("%s/%s: round trip #%d differs:\n got %+v\nwant %+v", f.Name, name, i+1, got, want)
			}
		}
		for i := 0; i < 2; i++ {
			if err := c.UnmarshalFresh(first); err != nil {
				return nil, fmt.Errorf("%s/%s: unmarshal into a new value #%d: %w", f.Name, name, i+1, err)
			}
			if got := c.DecodedFresh(); !reflect.DeepEqual(got, want) {
				return nil, fmt.Errorf("%s/%s: round trip into a new value #%d differs:\n got %+v\nwant %+v", f.Name, name, i+1, got, want)
			}
		}
		sizes[name] = len(first)
		if name == Forygen && f.NewEvolved != nil {
			if err := VerifyEvolved(f); err != nil {
				return nil, err
			}
		}
	}
	return sizes, nil
}

// VerifyEvolved checks f's evolved reader: it decodes the bytes of the
// standard forygen writer into f.EvolvedValue(), twice through its reused
// target and twice into a new value.
func VerifyEvolved(f Fixture) error {
	if f.NewEvolved == nil {
		return fmt.Errorf("%s has no evolved reader", f.Name)
	}
	want := f.EvolvedValue()
	c := f.NewEvolved()
	data, err := c.Marshal()
	if err != nil {
		return fmt.Errorf("%s/%s evolved: marshal: %w", f.Name, c.Name(), err)
	}
	for i := 0; i < 2; i++ {
		if err := c.Unmarshal(data); err != nil {
			return fmt.Errorf("%s/%s evolved: unmarshal #%d: %w", f.Name, c.Name(), i+1, err)
		}
		if got := c.Decoded(); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%s/%s evolved: read #%d differs:\n got %+v\nwant %+v", f.Name, c.Name(), i+1, got, want)
		}
		if err := c.UnmarshalFresh(data); err != nil {
			return fmt.Errorf("%s/%s evolved: unmarshal into a new value #%d: %w", f.Name, c.Name(), i+1, err)
		}
		if got := c.DecodedFresh(); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("%s/%s evolved: read into a new value #%d differs:\n got %+v\nwant %+v", f.Name, c.Name(), i+1, got, want)
		}
	}
	return nil
}
