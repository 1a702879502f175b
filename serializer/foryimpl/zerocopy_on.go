//go:build forygen_zerocopy

package foryimpl

// forceZeroCopy: see zerocopy_off.go. Built only for tests, with
// -tags forygen_zerocopy.
const forceZeroCopy = true
