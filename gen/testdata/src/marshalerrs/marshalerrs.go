package marshalerrs

import (
	"net/netip"
	"time"
)

//fory:generate id=1
type A struct {
	NoText   Plain           `fory:"id=0,marshal=text"`
	NoBinary netip.Addr      `fory:"id=1,marshal=bin"`
	Iface    TM              `fory:"id=2,marshal=text"`
	Slice    []netip.Addr    `fory:"id=3,marshal=text"`
	WithRef  netip.Addr      `fory:"id=4,marshal=text,ref"`
	WithType netip.Addr      `fory:"id=5,marshal=text,type=string"`
	Time     time.Time       `fory:"id=6,marshal=binary"`
	Ptr      *netip.AddrPort `fory:"id=7,marshal=text"`
	OnlyOne  Half            `fory:"id=8,marshal=text"`
	Shapes   *TM             `fory:"id=9"`
}

// Plain has no marshalers.
type Plain struct{ X int }

// TM is an interface with the text marshaler's methods.
type TM interface {
	MarshalText() ([]byte, error)
	UnmarshalText([]byte) error
}

// Half marshals but cannot unmarshal.
type Half struct{}

func (Half) MarshalText() ([]byte, error) { return nil, nil }
