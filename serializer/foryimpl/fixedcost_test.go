package foryimpl

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetFor: the budget begin computes from the context's precomputed
// thresholds is allocBudget's, for every option and input length near the
// thresholds, saturation included.
func TestBudgetFor(t *testing.T) {
	perBytes := []int{1, 2, 3, 64, 1000, 1 << 20, 1 << 40, math.MaxInt}
	bases := []int{1, 2, allocReserve - 1, allocReserve, allocReserve + 1, defaultAllocBase, 1 << 40, math.MaxInt}
	for _, p := range perBytes {
		for _, b := range bases {
			o := DefaultConfig()
			o.AllocPerByte, o.AllocBase = p, b
			c := makeReadContext(&o)
			ns := []uint64{0, 1, 2, 10, 1 << 20, math.MaxInt, math.MaxUint64 / 2}
			for _, th := range []uint64{c.reserveFrom, c.saturateFrom} {
				ns = append(ns, th-1, th, th+1)
			}
			for _, n := range ns {
				if n > math.MaxInt {
					continue
				}
				require.Equal(t, o.allocBudget(int(n)), c.budgetFor(n), "perByte %d base %d n %d", p, b, n)
			}
		}
	}
}
