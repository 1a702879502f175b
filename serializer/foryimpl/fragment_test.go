package foryimpl

// beginFragment is BeginRead for tests that read a value without the
// message around it: the data has no root flag, so the context tracks
// references as the Fory's option says, as it did before a message's root
// flag decided it (rootTracked).
func (f *Runtime) beginFragment(data []byte) *ReadContext {
	c := f.BeginRead(data)
	c.trackRef = f.opts.TrackRef
	return c
}
