package foryimpl

import (
	"sync"
	"sync/atomic"
)

// maxRemoteVersions bounds the received schemas cached per local type, as
// official Fory Go keeps at most 10 schema versions of a type.
const maxRemoteVersions = 10

// remoteCache keeps, per local struct type, the received TypeDefs that were
// accepted for it (they register the type and match its fields) with their
// field mappings, so a peer that keeps sending one schema has it parsed and
// matched once. It is shared by every Fory, like the type itself; a hit is
// checked against the reading Fory's limits.
//
// Only accepted TypeDefs enter, so a flood of rejected ones changes
// nothing. When the cache is full a new schema replaces the one hit least
// often: a legitimate peer's schema, hit on every message, survives a flood
// of distinct accepted ones, which evict each other. Readers load the
// entry list without locking; writers copy it (at most 10 pointers) under
// mu.
type remoteCache struct {
	mu      sync.Mutex
	entries atomic.Pointer[[]*remoteEntry]
}

type remoteEntry struct {
	raw  string // the TypeDef's bytes, copied
	d    *remoteDef
	hits atomic.Uint32 // saturates at maxHits, so a hot entry stops writing
}

const maxHits = 1 << 10

// lookup returns the cached TypeDef that in starts with, or nil.
func (rc *remoteCache) lookup(in []byte) *remoteDef {
	p := rc.entries.Load()
	if p == nil {
		return nil
	}
	n := typeDefLen(in)
	if n <= 0 {
		return nil
	}
	for _, e := range *p {
		if len(e.raw) == n && e.raw == string(in[:n]) {
			if e.hits.Load() < maxHits {
				e.hits.Add(1)
			}
			return e.d
		}
	}
	return nil
}

// add caches d, an accepted TypeDef whose field mapping is set, and
// reports how many entries the new list holds (the copy's cost).
func (rc *remoteCache) add(d *remoteDef) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var old []*remoteEntry
	if p := rc.entries.Load(); p != nil {
		old = *p
	}
	for _, e := range old {
		if e.raw == d.raw {
			return 0 // another goroutine cached it meanwhile
		}
	}
	e := &remoteEntry{raw: d.raw, d: d}
	var es []*remoteEntry
	if len(old) < maxRemoteVersions {
		es = append(append(make([]*remoteEntry, 0, len(old)+1), old...), e)
	} else {
		victim := 0
		for i, o := range old {
			if o.hits.Load() < old[victim].hits.Load() {
				victim = i
			}
		}
		es = append(make([]*remoteEntry, 0, len(old)), old...)
		es[victim] = e
	}
	rc.entries.Store(&es)
	return len(es)
}

// len is the number of cached schemas.
func (rc *remoteCache) len() int {
	if p := rc.entries.Load(); p != nil {
		return len(*p)
	}
	return 0
}
