package testpb

import "github.com/forygen/forygen/grpccodec/internal/testmsg"

// FromMediaContent returns the protobuf twin of m, so both codecs carry the
// same values.
func FromMediaContent(m *testmsg.MediaContent) *MediaContent {
	out := &MediaContent{Media: &Media{
		Uri:        m.Media.URI,
		Title:      m.Media.Title,
		Width:      m.Media.Width,
		Height:     m.Media.Height,
		Format:     m.Media.Format,
		Duration:   m.Media.Duration,
		Size:       m.Media.Size,
		Bitrate:    m.Media.Bitrate,
		HasBitrate: m.Media.HasBitrate,
		Persons:    append([]string(nil), m.Media.Persons...),
		Player:     Player(m.Media.Player),
		Copyright:  m.Media.Copyright,
	}}
	for _, img := range m.Images {
		out.Images = append(out.Images, &Image{
			Uri:    img.URI,
			Title:  img.Title,
			Width:  img.Width,
			Height: img.Height,
			Size:   Size(img.Size),
		})
	}
	return out
}

// ToMediaContent converts back, for checking that a value survived a call.
func ToMediaContent(p *MediaContent) *testmsg.MediaContent {
	m := p.GetMedia()
	out := &testmsg.MediaContent{Media: testmsg.Media{
		URI:        m.GetUri(),
		Title:      m.GetTitle(),
		Width:      m.GetWidth(),
		Height:     m.GetHeight(),
		Format:     m.GetFormat(),
		Duration:   m.GetDuration(),
		Size:       m.GetSize(),
		Bitrate:    m.GetBitrate(),
		HasBitrate: m.GetHasBitrate(),
		Persons:    m.GetPersons(),
		Player:     testmsg.Player(m.GetPlayer()),
		Copyright:  m.GetCopyright(),
	}}
	out.Images = make([]testmsg.Image, 0, len(p.GetImages()))
	for _, img := range p.GetImages() {
		out.Images = append(out.Images, testmsg.Image{
			URI:    img.GetUri(),
			Title:  img.GetTitle(),
			Width:  img.GetWidth(),
			Height: img.GetHeight(),
			Size:   testmsg.Size(img.GetSize()),
		})
	}
	return out
}
