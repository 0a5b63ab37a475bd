// A wgmma shared-memory descriptor of a tile swizzled by 128 bytes (mode 1):
// the start address, the leading and the stride byte offsets (LBO, SBO),
// each in 16-byte units.
template <unsigned long long LBO, unsigned long long SBO>
__device__ __forceinline__ unsigned long long kute_wgmma_desc_sw128(const void* p) {
  unsigned long long a = (unsigned long long)((unsigned int)__cvta_generic_to_shared(p) & 0x3FFFF) >> 4;
  return a | ((LBO >> 4) << 16) | ((SBO >> 4) << 32) | (1ULL << 62);
}
