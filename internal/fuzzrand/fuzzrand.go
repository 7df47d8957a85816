// Package fuzzrand turns a fuzzer's bytes into a math/rand/v2 source for
// the fuzz targets of the blas and lapack packages: each draw spends one
// byte, so that a mutated byte changes one decision, and the draws after
// the last byte come from a generator seeded by the first eight.
package fuzzrand

import (
	"encoding/binary"
	"math/rand/v2"
)

// source is the rand.Source behind New.
type source struct {
	data []byte
	pcg  *rand.PCG
}

// New returns a generator that spends data a byte a draw; stream tells
// apart the generators of different targets once the bytes run out.
func New(data []byte, stream uint64) *rand.Rand {
	var seed [8]byte
	copy(seed[:], data)
	return rand.New(&source{data: data, pcg: rand.NewPCG(binary.LittleEndian.Uint64(seed[:]), stream)})
}

// Uint64 puts the next byte in every byte of the draw, so that small
// ranges (IntN) take it from the top bits and powers of two from the
// bottom ones, mixed with the generator's high bits.
func (s *source) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.pcg.Uint64()
	}
	b := uint64(s.data[0])
	s.data = s.data[1:]
	return b*0x0101_0101_0101_0101 ^ s.pcg.Uint64()>>8
}
