#include "textflag.h"

// func ask(spans []Span)
// Each Span is two words: its first byte, and its lines (at most
// MaxLines). A span with a nil pointer or no lines asks for nothing.
// PREFETCHT0 asks for the line into every level of the cache; it never
// faults, whatever the address.
TEXT ·ask(SB), NOSPLIT, $0-24
	MOVQ spans_base+0(FP), SI
	MOVQ spans_len+8(FP), DX
	TESTQ DX, DX
	JEQ done
span:
	MOVQ 0(SI), AX
	MOVQ 8(SI), CX
	ADDQ $16, SI
	TESTQ AX, AX
	JEQ next
	TESTQ CX, CX
	JEQ next
line:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ CX
	JNE line
next:
	DECQ DX
	JNE span
done:
	RET
