#include "textflag.h"

// func request(args *[6]uint64) uint64
//
// Valgrind's client request: the no-op rotations of DI that valgrind
// recognises, then XCHGQ BX, BX; natively it does nothing and returns 0.
TEXT ·request(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), AX
	MOVQ $0, DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET
