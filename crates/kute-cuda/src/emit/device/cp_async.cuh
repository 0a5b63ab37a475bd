// cp.async: one 16-byte copy from global to shared memory, completing
// asynchronously (the kernel commits and waits for its groups); `_at` takes
// the shared-window address (which takes an immediate offset).
__device__ __forceinline__ void kute_cp_async16_at(unsigned int s, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void kute_cp_async16(void* smem, const void* gmem) {
  kute_cp_async16_at((unsigned int)__cvta_generic_to_shared(smem), gmem);
}
// the same, reading `bytes` (0 or 16) of gmem and filling the rest with zeros
__device__ __forceinline__ void kute_cp_async16_zfill_at(unsigned int s, const void* gmem, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(s), "l"(gmem), "r"(bytes) : "memory");
}
__device__ __forceinline__ void kute_cp_async16_zfill(void* smem, const void* gmem, int bytes) {
  kute_cp_async16_zfill_at((unsigned int)__cvta_generic_to_shared(smem), gmem, bytes);
}
