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
//   - every codec's decoded value equals every other's (in particular,
//     decoding forygen bytes equals converting the protobuf-decoded message).
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
		sizes[name] = len(first)
	}
	return sizes, nil
}
