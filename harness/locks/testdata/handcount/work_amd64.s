#include "textflag.h"

// func work100(): MOVQ, 33 rounds of ADDQ, DECQ, JNZ, and RET: 101
// instructions.
TEXT ·work100(SB), NOSPLIT, $0-0
	MOVQ $33, CX
loop:
	ADDQ $1, AX
	DECQ CX
	JNZ  loop
	RET

// func work300(): MOVQ, 99 rounds, and RET: 299 instructions.
TEXT ·work300(SB), NOSPLIT, $0-0
	MOVQ $99, CX
loop:
	ADDQ $1, AX
	DECQ CX
	JNZ  loop
	RET
