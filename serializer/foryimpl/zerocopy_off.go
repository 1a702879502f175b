//go:build !forygen_zerocopy

package foryimpl

// forceZeroCopy turns WithZeroCopy on for every Runtime when the tests are
// built with -tags forygen_zerocopy (zerocopy_on.go), so that the whole
// test suite runs with decoded values aliasing their input
// (.ci/run). Without the tag it is false and costs nothing.
const forceZeroCopy = false
