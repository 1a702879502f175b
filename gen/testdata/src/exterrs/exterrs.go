package exterrs

import (
	"net/netip"

	"github.com/forygen/forygen/buffer"
)

//fory:ext id=1 type=netip.Addr
type WithFields struct{ X int }

//fory:ext id=2 type=netip.Nope
type NoSuchType struct{}

//fory:ext id=3 type=netip.Prefix
type NoMethods struct{}

//fory:ext id=4 type=Gen
type OnAnnotated struct{}

//fory:ext id=5
type NoTarget struct{}

//fory:ext id=6 type=netip.AddrPort
type Good struct{}

func (Good) WriteExt(b *buffer.Buffer, v *netip.AddrPort) error { return nil }
func (Good) ReadExt(r *buffer.Reader, v *netip.AddrPort) error  { return nil }

//fory:ext id=7 type=netip.AddrPort
type Again struct{}

func (Again) WriteExt(b *buffer.Buffer, v *netip.AddrPort) error { return nil }
func (Again) ReadExt(r *buffer.Reader, v *netip.AddrPort) error  { return nil }

//fory:generate id=8
type Gen struct {
	P netip.AddrPort
}

//fory:generate id=9
type Elems struct {
	L map[string]*netip.AddrPort
}
