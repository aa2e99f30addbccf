//go:build !purego

#include "textflag.h"

// The wide walk's kernels (wide.go), in AVX-512 (F and BW): 64 rows at a
// time, a column's 64 values in four registers of sixteen.

// func gather64(feat *int32, nan, max *float32, n uintptr, x *float32, rowOff *int32, vals *float32)
//
// For each of the n columns k: vals[64k+r] = x[rowOff[r]+feat[k]], nan[k]
// when that is NaN, max[k] when it is above max[k], for r in 0..63.
// VMINPS(v, max) is v when v < max and max otherwise (also when v is
// NaN, which then takes nan).
TEXT ·gather64(SB), NOSPLIT, $0-56
	MOVQ feat+0(FP), SI
	MOVQ nan+8(FP), DI
	MOVQ max+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ x+32(FP), R9
	MOVQ rowOff+40(FP), AX
	MOVQ vals+48(FP), R10
	VMOVDQU32 0(AX), Z20
	VMOVDQU32 64(AX), Z21
	VMOVDQU32 128(AX), Z22
	VMOVDQU32 192(AX), Z23
	TESTQ CX, CX
	JZ gdone

gcol:
	VPBROADCASTD (SI), Z0
	VBROADCASTSS (DI), Z1 // nan
	VBROADCASTSS (R8), Z2 // max
	VPADDD Z20, Z0, Z4
	VPADDD Z21, Z0, Z5
	VPADDD Z22, Z0, Z6
	VPADDD Z23, Z0, Z7
	KXNORW K1, K1, K1
	VGATHERDPS (R9)(Z4*4), K1, Z8
	KXNORW K2, K2, K2
	VGATHERDPS (R9)(Z5*4), K2, Z9
	KXNORW K3, K3, K3
	VGATHERDPS (R9)(Z6*4), K3, Z10
	KXNORW K4, K4, K4
	VGATHERDPS (R9)(Z7*4), K4, Z11
	VCMPPS $3, Z8, Z8, K1 // unordered: NaN
	VCMPPS $3, Z9, Z9, K2
	VCMPPS $3, Z10, Z10, K3
	VCMPPS $3, Z11, Z11, K4
	VMINPS Z2, Z8, Z8
	VMINPS Z2, Z9, Z9
	VMINPS Z2, Z10, Z10
	VMINPS Z2, Z11, Z11
	VMOVAPS Z1, K1, Z8
	VMOVAPS Z1, K2, Z9
	VMOVAPS Z1, K3, Z10
	VMOVAPS Z1, K4, Z11
	VMOVUPS Z8, 0(R10)
	VMOVUPS Z9, 64(R10)
	VMOVUPS Z10, 128(R10)
	VMOVUPS Z11, 192(R10)
	ADDQ $4, SI
	ADDQ $4, DI
	ADDQ $4, R8
	ADDQ $256, R10
	DECQ CX
	JNZ gcol

gdone:
	VZEROUPPER
	RET

// func ways64(col *uint32, thr *float32, d uintptr, vals *float32, ways, at *uint64)
//
// For a tree of depth d (at least 1) whose splits are col and thr: bit r
// of ways[L] is set when row r of vals (gather64's) goes right at level
// L. A split i sends right the rows whose value in column col[i] is above
// thr[i] (LT_OQ: thr < value, never for NaN, which the gathered values
// are not), its mask m; of the rows at i (at[i], all rows at the root),
// those in m go right at its level and to split 2i+2, the others to
// 2i+1. at is scratch of 2^(d+1)+1 entries.
TEXT ·ways64(SB), NOSPLIT, $0-48
	MOVQ col+0(FP), SI
	MOVQ thr+8(FP), DI
	MOVQ d+16(FP), CX
	MOVQ vals+24(FP), R8
	MOVQ ways+32(FP), R9
	MOVQ at+40(FP), R10
	MOVQ $-1, AX
	MOVQ AX, (R10) // every row is at the root
	XORQ R11, R11  // the split
	MOVQ $1, BX    // where the level's splits end

wlevel:
	XORQ R13, R13 // the level's ways

wsplit:
	MOVL (SI)(R11*4), AX
	SHLQ $8, AX // 64 values of 4 bytes a column
	ADDQ R8, AX
	VBROADCASTSS (DI)(R11*4), Z0
	VCMPPS $0x11, 0(AX), Z0, K1
	VCMPPS $0x11, 64(AX), Z0, K2
	VCMPPS $0x11, 128(AX), Z0, K3
	VCMPPS $0x11, 192(AX), Z0, K4
	KUNPCKWD K1, K2, K1 // K1 = K2<<16 | K1
	KUNPCKWD K3, K4, K3
	KUNPCKDQ K1, K3, K1 // K1 = K3<<32 | K1
	KMOVQ K1, DX           // m
	MOVQ (R10)(R11*8), AX  // the rows at the split
	ANDNQ AX, DX, R12      // going left: ^m & at
	ANDQ DX, AX            // going right
	ORQ AX, R13
	LEAQ (R11)(R11*1), DX
	MOVQ R12, 8(R10)(DX*8) // at[2i+1]
	MOVQ AX, 16(R10)(DX*8) // at[2i+2]
	INCQ R11
	CMPQ R11, BX
	JLT wsplit

	MOVQ R13, (R9)
	ADDQ $8, R9
	LEAQ 1(BX)(BX*1), BX
	DECQ CX
	JNZ wlevel
	VZEROUPPER
	RET

// func leaves64(bits *uint64, d uintptr, leaves *float64, out *float64)
//
// For each of the 64 rows r: out[r] += leaves[i], where bit d−1−L of i
// is bit r of bits[L] (the row's way at level L, the first level the
// leaf index's highest bit). d is at least 1.
TEXT ·leaves64(SB), NOSPLIT, $0-32
	MOVQ bits+0(FP), SI
	MOVQ d+8(FP), BX
	MOVQ leaves+16(FP), DI
	MOVQ out+24(FP), R10
	MOVL $1, AX
	VPBROADCASTD AX, Z31 // ones
	VPXORD Z0, Z0, Z0 // rows 0-15's leaf indices
	VPXORD Z1, Z1, Z1 // 16-31
	VPXORD Z2, Z2, Z2 // 32-47
	VPXORD Z3, Z3, Z3 // 48-63

llevel:
	MOVQ (SI), AX
	KMOVQ AX, K1
	KSHIFTRQ $16, K1, K2
	KSHIFTRQ $32, K1, K3
	KSHIFTRQ $48, K1, K4
	VPADDD Z0, Z0, Z0
	VPADDD Z1, Z1, Z1
	VPADDD Z2, Z2, Z2
	VPADDD Z3, Z3, Z3
	VPADDD Z31, Z0, K1, Z0
	VPADDD Z31, Z1, K2, Z1
	VPADDD Z31, Z2, K3, Z2
	VPADDD Z31, Z3, K4, Z3
	ADDQ $8, SI
	DECQ BX
	JNZ llevel

	// Rows 0-15: indices Y0 and the upper half of Z0.
	VEXTRACTI64X4 $1, Z0, Y4
	VEXTRACTI64X4 $1, Z1, Y5
	VEXTRACTI64X4 $1, Z2, Y6
	VEXTRACTI64X4 $1, Z3, Y7
	KXNORW K1, K1, K1
	VGATHERDPD (DI)(Y0*8), K1, Z8
	KXNORW K2, K2, K2
	VGATHERDPD (DI)(Y4*8), K2, Z9
	KXNORW K3, K3, K3
	VGATHERDPD (DI)(Y1*8), K3, Z10
	KXNORW K4, K4, K4
	VGATHERDPD (DI)(Y5*8), K4, Z11
	KXNORW K1, K1, K1
	VGATHERDPD (DI)(Y2*8), K1, Z12
	KXNORW K2, K2, K2
	VGATHERDPD (DI)(Y6*8), K2, Z13
	KXNORW K3, K3, K3
	VGATHERDPD (DI)(Y3*8), K3, Z14
	KXNORW K4, K4, K4
	VGATHERDPD (DI)(Y7*8), K4, Z15
	VADDPD 0(R10), Z8, Z8
	VADDPD 64(R10), Z9, Z9
	VADDPD 128(R10), Z10, Z10
	VADDPD 192(R10), Z11, Z11
	VADDPD 256(R10), Z12, Z12
	VADDPD 320(R10), Z13, Z13
	VADDPD 384(R10), Z14, Z14
	VADDPD 448(R10), Z15, Z15
	VMOVUPD Z8, 0(R10)
	VMOVUPD Z9, 64(R10)
	VMOVUPD Z10, 128(R10)
	VMOVUPD Z11, 192(R10)
	VMOVUPD Z12, 256(R10)
	VMOVUPD Z13, 320(R10)
	VMOVUPD Z14, 384(R10)
	VMOVUPD Z15, 448(R10)
	VZEROUPPER
	RET
