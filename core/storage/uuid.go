package storage

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
)

// UUIDLen is the length of the uuid the service writes in every name: a
// UUID in its 36-character text form.
const UUIDLen = 36

// UUIDs hands out the uuid of each file of a preview.
//
// With a seed (a --uuid the user gave), file 0 gets the seed itself and
// file i > 0 a version-4-shaped UUID derived from the seed and i, so a
// preview is reproducible and successive files still get distinct names,
// as they would from the service. Without a seed every uuid is random.
type UUIDs struct {
	seed string
	hash uint64
}

// NewUUIDs returns a source seeded with seed; "" means random.
func NewUUIDs(seed string) UUIDs {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return UUIDs{seed: seed, hash: h.Sum64()}
}

// Seeded reports whether the uuids are reproducible.
func (u UUIDs) Seeded() bool { return u.seed != "" }

// At returns the uuid of file i.
func (u UUIDs) At(i int) string {
	if u.seed == "" {
		return RandomUUID()
	}
	if i == 0 {
		return u.seed
	}
	// splitmix64 over the seed's hash and the index: cheap, and good
	// enough to make neighbouring files look unrelated.
	// Each half gets its own counter value, so no half repeats in another
	// uuid.
	const golden = 0x9e3779b97f4a7c15
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], mix(u.hash+uint64(2*i)*golden))
	binary.BigEndian.PutUint64(b[8:], mix(u.hash+uint64(2*i+1)*golden))
	return formatUUID(b)
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// RandomUUID returns a random version 4 UUID. It draws from math/rand/v2,
// whose generator the runtime seeds from the system's entropy: a preview
// needs names that differ, not secrets, and crypto/rand would add about
// 190 KB to every WebAssembly build, where nothing else links it.
func RandomUUID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], rand.Uint64())
	binary.BigEndian.PutUint64(b[8:], rand.Uint64())
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	const hexd = "0123456789abcdef"
	out := make([]byte, 0, UUIDLen)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexd[c>>4], hexd[c&15])
	}
	return string(out)
}
