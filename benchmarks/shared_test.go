package benchmarks

import (
	"testing"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/conformance/refs"
	"github.com/forygen/forygen/serializer"
)

// sharedImages is a list of 20 pointers to 4 images, as a gallery that
// shows each image several times: with tracking each image is written once
// and the rest are back-references; without, every occurrence is a copy.
func sharedImages() *refs.ImagePtrList {
	imgs := make([]*refs.Image, 4)
	for i := range imgs {
		imgs[i] = &refs.Image{URI: "http://javaone.com/keynote_huge.jpg", Title: "Javaone Keynote", Width: 1024, Height: 768, Size: refs.SizeLarge}
	}
	l := &refs.ImagePtrList{}
	for i := 0; i < 20; i++ {
		l.Images = append(l.Images, imgs[i%4])
	}
	return l
}

// BenchmarkShared/<direction>/<tracking> serializes and deserializes the
// shared gallery with and without reference tracking (compatible mode, a
// reused buffer and target). It reports the message size.
func BenchmarkShared(b *testing.B) {
	for _, mode := range []struct {
		name  string
		track bool
	}{{"forygen", false}, {"forygen-ref", true}} {
		f := serializer.New(serializer.WithTrackRef(mode.track))
		v := sharedImages()
		buf := buffer.New(256)
		if err := v.ForySerializeTo(f, buf); err != nil {
			b.Fatal(err)
		}
		data := append([]byte(nil), buf.Bytes()...)
		b.Run("Serialize/"+mode.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(len(data)), "bytes/msg")
			for i := 0; i < b.N; i++ {
				buf.Reset()
				if err := v.ForySerializeTo(f, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Deserialize/"+mode.name, func(b *testing.B) {
			b.ReportAllocs()
			var out refs.ImagePtrList
			for i := 0; i < b.N; i++ {
				if err := out.ForyDeserialize(f, data); err != nil {
					b.Fatal(err)
				}
			}
			if mode.track && out.Images[0] != out.Images[4] {
				b.Fatal("sharing lost")
			}
		})
	}
}
