package e2e_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// TestTrackedMessageAnyReader: a message is read the way it was written,
// whatever the reader's WithTrackRef says. A tracked message (root flag
// 0x00, as foryc-generated peers write) decodes with a Fory without the
// option, the package functions' default Fory among them, and an untracked
// one (0xff) with a Fory that has it, in both modes, also through the
// generated entry points directly.
func TestTrackedMessageAnyReader(t *testing.T) {
	for _, m := range modes {
		for _, writerTracks := range []bool{true, false} {
			w := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(writerTracks))
			readers := []*serializer.Fory{serializer.New(serializer.WithCompatible(m.compatible), serializer.WithTrackRef(!writerTracks))}
			if m.compatible && writerTracks {
				readers = append(readers, serializer.New())
			}
			for _, r := range roots() {
				v := r.value()
				data, err := w.Serialize(v)
				require.NoError(t, err, "%s/%s", m.name, r.name)
				if writerTracks {
					require.Equal(t, byte(0x00), data[1], "%s/%s", m.name, r.name)
				}
				for _, f := range readers {
					got := r.fresh()
					require.NoError(t, f.Deserialize(data, got), "%s/%s writer tracks: %v", m.name, r.name, writerTracks)
					require.Equal(t, v, got, "%s/%s", m.name, r.name)
					got = r.fresh()
					require.NoError(t, got.(serializer.Message).ForyDeserialize(f, data), "%s/%s", m.name, r.name)
					require.Equal(t, v, got, "%s/%s", m.name, r.name)
				}
				if m.compatible && writerTracks {
					got := r.fresh()
					require.NoError(t, serializer.Deserialize(data, got), "%s", r.name)
					require.Equal(t, v, got, "%s", r.name)
				}
			}
		}
	}
}
