package strips

import "math/bits"

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
