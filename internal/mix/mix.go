// Package mix holds SplitMix64's finaliser, the bit mixer that the
// project's deterministic hashes and generators share: the trees' row
// sampling (gbdt), MinHash signatures (fingerprint), the site model's
// fingerprints (site) and the choice of blind sites in training (train).
package mix

// Mix64 returns z with its bits mixed (SplitMix64's finaliser): every bit
// of the result depends on every bit of z, so that inputs that differ in a
// few low bits give unrelated outputs.
func Mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
