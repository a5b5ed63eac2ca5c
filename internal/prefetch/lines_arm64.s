#include "textflag.h"

// func ask(spans []Span)
// Each Span is two words: its first byte, and its lines (at most
// MaxLines). A span with a nil pointer or no lines asks for nothing.
// PRFM PLDL1KEEP asks for the line into the first level of the cache; it
// never faults, whatever the address.
TEXT ·ask(SB), NOSPLIT, $0-24
	MOVD spans_base+0(FP), R2
	MOVD spans_len+8(FP), R3
	CBZ R3, done
span:
	MOVD 0(R2), R0
	MOVD 8(R2), R1
	ADD $16, R2
	CBZ R0, next
	CBZ R1, next
line:
	PRFM (R0), PLDL1KEEP
	ADD $64, R0
	SUB $1, R1
	CBNZ R1, line
next:
	SUB $1, R3
	CBNZ R3, span
done:
	RET
